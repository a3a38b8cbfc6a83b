ALTER TABLE "shops" ALTER COLUMN "adjustment_limit" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ALTER COLUMN "adjustment_limit" DROP DEFAULT;--> statement-breakpoint
UPDATE "shops" SET "adjustment_limit" = NULL WHERE "adjustment_limit" = 100;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "staff_adjustments_per_day" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "staff_adjustments_lifetime" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- lock-ok: shops holds one row per shop; the check reads them once.
ALTER TABLE "shops" ADD CONSTRAINT "shops_adjustments_check" CHECK (("shops"."adjustment_limit" is null or "shops"."adjustment_limit" > 0) and "shops"."staff_adjustments_per_day" between 0 and 50);--> statement-breakpoint
CREATE TABLE "adjustments" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"card_id" text NOT NULL,
	"actor_id" text NOT NULL,
	"delta" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"kind" text NOT NULL,
	"alerts" text[] DEFAULT '{}'::text[] NOT NULL,
	"idempotency_key" text NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "adjustments_delta_check" CHECK ("adjustments"."delta" <> 0),
	CONSTRAINT "adjustments_status_check" CHECK ("adjustments"."status" in ('applied', 'pending', 'refused'))
);
--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adjustments" ADD CONSTRAINT "adjustments_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "adjustments_actor_id_idempotency_key_index" ON "adjustments" USING btree ("actor_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "adjustments_shop_id_created_at_index" ON "adjustments" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "adjustments_shop_id_actor_id_created_at_index" ON "adjustments" USING btree ("shop_id","actor_id","created_at");--> statement-breakpoint
CREATE INDEX "adjustments_pending_idx" ON "adjustments" USING btree ("shop_id","created_at") WHERE "adjustments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "adjustments_card_id_index" ON "adjustments" USING btree ("card_id");--> statement-breakpoint
-- lock-ok: one read of ledger_entries to build a partial index that holds only corrections (a few per shop a day);
-- writes to the ledger wait for that read, about a second per million entries. Once, at this upgrade.
CREATE UNIQUE INDEX "ledger_entries_adjustment_once_idx" ON "ledger_entries" USING btree ("ref_id") WHERE "ledger_entries"."kind" in ('adjustment', 'adjustment_balance') and "ledger_entries"."ref_id" is not null;--> statement-breakpoint
INSERT INTO "adjustments" ("shop_id", "card_id", "actor_id", "delta", "reason", "status", "kind", "idempotency_key", "decided_by", "decided_at", "created_at")
SELECT l."shop_id", l."card_id", coalesce(l."actor_id", ''), l."delta", coalesce(l."reason", ''), 'applied', l."kind", coalesce(l."idempotency_key", l."id"), NULL, NULL, l."created_at"
FROM "ledger_entries" l WHERE l."kind" = 'adjustment'
ON CONFLICT DO NOTHING;
