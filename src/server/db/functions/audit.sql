-- The audit log (/admin/logs) is append-only in the database, whoever connects (triggers audit_log_append_only and
-- audit_log_no_truncate, migration 0017). One exception, for RGPD erasure (src/server/modules/accounts/rgpd.service.ts):
-- inside a transaction that has set `fidele.audit_erasure` to 'on' (set_config(…, true): that transaction only), an
-- UPDATE may wipe the address (ip → null) and rewrite `target`/`details`; who acted, on which shop, what and when
-- never change, and no row is ever deleted. docs/decisions/0029-audit-log-append-only.md.
CREATE OR REPLACE FUNCTION fidele_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF current_setting('fidele.audit_erasure', true) = 'on'
       AND NEW.id = OLD.id
       AND NEW.action = OLD.action
       AND NEW.created_at = OLD.created_at
       AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
       AND NEW.shop_id IS NOT DISTINCT FROM OLD.shop_id
       AND NEW.ip IS NULL THEN
      RETURN NEW;
    END IF;
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
