CREATE TABLE "session_places" (
	"session_id" text PRIMARY KEY NOT NULL,
	"time_zone" text,
	"network" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_places" ADD CONSTRAINT "session_places_session_id_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The audit log is append-only and a member's role change is logged: the bodies of these two trigger functions are
-- functions/audit.sql's (ADR 0016, 0043), applied right after the migrations; here they only exist so the triggers
-- can be created, and refuse to run before those bodies replace them.
CREATE OR REPLACE FUNCTION fidele_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege'; END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_audit_member_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'fidele_audit_member_role: its body (functions/audit.sql) is applied after the migrations'; END
$$;--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION fidele_audit_append_only();--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION fidele_audit_append_only();--> statement-breakpoint
CREATE TRIGGER member_role_audit AFTER UPDATE OF role ON member
  FOR EACH ROW EXECUTE FUNCTION fidele_audit_member_role();

