-- The audit log (/admin/logs) is append-only in the database (triggers audit_log_append_only and audit_log_no_truncate,
-- migration 0020); on PostgreSQL the role the server connects as has no UPDATE, DELETE or TRUNCATE on it at all
-- (roles.sql). One exception, RGPD erasure through fidele_erase_person_traces (erasure.sql): while
-- `fidele.erasing_user` names a person, an UPDATE passes only when its new row is exactly that person's redaction of
-- the old one (fidele_audit_redacted): their IP, address, phone and name go; nothing else may change, no row is ever
-- deleted. docs/decisions/0029-audit-log-append-only.md, 0034-two-roles-and-complete-erasure.md.
CREATE OR REPLACE FUNCTION fidele_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  erasing text := nullif(current_setting('fidele.erasing_user', true), '');
BEGIN
  IF TG_OP = 'UPDATE' AND erasing IS NOT NULL
     AND NEW IS NOT DISTINCT FROM fidele_audit_redacted(OLD, erasing, fidele_person_needles(erasing)) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

-- A member's role changed, whatever the path (better-auth's organization API, a script): logged. The actor is the
-- transaction's `fidele.actor_id` when the application set one, else unknown (null).
CREATE OR REPLACE FUNCTION fidele_audit_member_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role IS DISTINCT FROM OLD.role THEN
    INSERT INTO audit_log (actor_id, shop_id, action, target, details)
    VALUES (nullif(current_setting('fidele.actor_id', true), ''), NEW.organization_id, 'member.role', NEW.user_id,
            jsonb_build_object('from', OLD.role, 'to', NEW.role));
  END IF;
  RETURN NEW;
END
$$;
