ALTER TABLE "shops" ADD COLUMN "offline_grace_minutes" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD CONSTRAINT "shops_offline_grace_check" CHECK ("shops"."offline_grace_minutes" between 0 and 240);--> statement-breakpoint
-- The offline grace is read by fidele_scan (src/server/db/functions/scan.sql).
