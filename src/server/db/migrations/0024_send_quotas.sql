ALTER TABLE "sms_budgets" ADD COLUMN "requested_segments" integer;--> statement-breakpoint
ALTER TABLE "sms_budgets" ADD COLUMN "request_note" text;--> statement-breakpoint
ALTER TABLE "sms_budgets" ADD COLUMN "requested_at" timestamp with time zone;--> statement-breakpoint
-- lock-ok: sms_budgets holds one row per shop, and the column checked was just added (all NULL).
ALTER TABLE "sms_budgets" ADD CONSTRAINT "sms_budgets_requested_segments_check" CHECK ("sms_budgets"."requested_segments" is null or "sms_budgets"."requested_segments" >= 0);--> statement-breakpoint
CREATE TABLE "sms_owner_phones" (
	"user_id" text PRIMARY KEY NOT NULL,
	"verified_phone" text,
	"verified_at" timestamp with time zone,
	"pending_phone" text,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_owner_phones" ADD CONSTRAINT "sms_owner_phones_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- lock-ok: one read of message_deliveries builds it (sends wait for it, about a second per million deliveries), once,
-- at this upgrade; the recipient cap reads it at every send.
CREATE INDEX "message_deliveries_cap_idx" ON "message_deliveries" USING btree ("user_id","delivered_at") WHERE "message_deliveries"."status" = 'delivered';
