-- Two roles on PostgreSQL (docs/decisions/0034-two-roles-and-complete-erasure.md): the owner role runs the migrations
-- and owns every table and function; the server connects as an application role that may read and write the data but
-- only insert into and read the audit log, and can change no table's definition (no ALTER, no DISABLE TRIGGER, no
-- DROP: only an owner may). The server's start calls this, as the owner, after the migrations, when it is given both
-- addresses (DATABASE_OWNER_URL and DATABASE_URL; src/server/db/roles.ts): the grants follow every new table.
CREATE OR REPLACE FUNCTION fidele_grant_app_role(p_role text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  app pg_roles;
  audit_owner oid := (SELECT relowner FROM pg_class WHERE oid = 'audit_log'::regclass);
  obj record;
BEGIN
  SELECT * INTO app FROM pg_roles WHERE rolname = p_role;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'the application role % does not exist', p_role;
  END IF;
  IF app.rolsuper OR app.rolbypassrls OR pg_has_role(p_role, audit_owner, 'USAGE') THEN
    -- A superuser, or a member of the owner role, could alter the tables and rewrite the log: refuse to start.
    RAISE EXCEPTION 'the application role % must not be a superuser nor the owner of the tables (%)', p_role,
      audit_owner::regrole;
  END IF;
  EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', p_role);
  EXECUTE format('REVOKE CREATE ON SCHEMA public FROM %I', p_role);
  EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO %I', p_role);
  EXECUTE format('REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA public FROM %I', p_role);
  EXECUTE format('REVOKE UPDATE, DELETE ON audit_log FROM %I', p_role);
  EXECUTE format('GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO %I', p_role);
  EXECUTE format('GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO %I', p_role);
  EXECUTE format('REVOKE EXECUTE ON FUNCTION fidele_grant_app_role(text) FROM %I', p_role);
  -- The job engine's schema is its own (pg-boss creates and upgrades it, ADR 0015): the application role owns it.
  IF to_regnamespace('pgboss') IS NULL THEN
    EXECUTE format('CREATE SCHEMA pgboss AUTHORIZATION %I', p_role);
  ELSIF (SELECT nspowner FROM pg_namespace WHERE nspname = 'pgboss') <> app.oid THEN
    -- Made by one role before (a single-URL install moving to two): handed over, object by object.
    EXECUTE format('ALTER SCHEMA pgboss OWNER TO %I', p_role);
    FOR obj IN
      SELECT c.relname, c.relkind FROM pg_class c
      WHERE c.relnamespace = 'pgboss'::regnamespace AND c.relkind IN ('r', 'p', 'S', 'v')
        AND c.relowner <> app.oid
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i') AND c.relkind = 'S')
    LOOP
      EXECUTE format('ALTER %s pgboss.%I OWNER TO %I',
        CASE obj.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END, obj.relname, p_role);
    END LOOP;
    FOR obj IN SELECT p.oid::regprocedure AS fn FROM pg_proc p WHERE p.pronamespace = 'pgboss'::regnamespace LOOP
      EXECUTE format('ALTER FUNCTION %s OWNER TO %I', obj.fn, p_role);
    END LOOP;
    FOR obj IN
      SELECT t.typname FROM pg_type t WHERE t.typnamespace = 'pgboss'::regnamespace AND t.typtype IN ('e', 'd')
    LOOP
      EXECUTE format('ALTER TYPE pgboss.%I OWNER TO %I', obj.typname, p_role);
    END LOOP;
  END IF;
END
$$;
REVOKE ALL ON FUNCTION fidele_grant_app_role(text) FROM PUBLIC;
