CREATE TABLE "session_places" (
	"session_id" text PRIMARY KEY NOT NULL,
	"time_zone" text,
	"network" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_places" ADD CONSTRAINT "session_places_session_id_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
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
$$;--> statement-breakpoint

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
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION fidele_audit_append_only();--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION fidele_audit_append_only();--> statement-breakpoint
CREATE TRIGGER member_role_audit AFTER UPDATE OF role ON member
  FOR EACH ROW EXECUTE FUNCTION fidele_audit_member_role();

