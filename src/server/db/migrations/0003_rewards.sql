CREATE TABLE "redemptions" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"reward_id" text NOT NULL,
	"card_id" text NOT NULL,
	"user_id" text,
	"code" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"source" text DEFAULT 'reward' NOT NULL,
	"source_ref" text,
	"title" text NOT NULL,
	"cost" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"idempotency_key" text NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"refuse_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "redemptions_cost_check" CHECK ("redemptions"."cost" >= 0)
);
--> statement-breakpoint
CREATE TABLE "rewards" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"photo" text,
	"cost" integer NOT NULL,
	"stock" integer,
	"per_customer_limit" integer,
	"valid_from" date,
	"valid_until" date,
	"kind" text DEFAULT 'repeatable' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rewards_slug_unique" UNIQUE("slug"),
	CONSTRAINT "rewards_cost_check" CHECK ("rewards"."cost" > 0),
	CONSTRAINT "rewards_stock_check" CHECK ("rewards"."stock" is null or "rewards"."stock" >= 0),
	CONSTRAINT "rewards_limit_check" CHECK ("rewards"."per_customer_limit" is null or "rewards"."per_customer_limit" > 0)
);
--> statement-breakpoint
CREATE TABLE "vip_tiers" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"name" text NOT NULL,
	"threshold" integer NOT NULL,
	"multiplier" integer DEFAULT 1 NOT NULL,
	"reward_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vip_tiers_threshold_check" CHECK ("vip_tiers"."threshold" > 0),
	CONSTRAINT "vip_tiers_multiplier_check" CHECK ("vip_tiers"."multiplier" between 1 and 3)
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" DROP CONSTRAINT "ledger_entries_delta_check";--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "redemption_ttl_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "birthday_reward_id" text;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_reward_id_rewards_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."rewards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "redemptions" ADD CONSTRAINT "redemptions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rewards" ADD CONSTRAINT "rewards_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vip_tiers" ADD CONSTRAINT "vip_tiers_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vip_tiers" ADD CONSTRAINT "vip_tiers_reward_id_rewards_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."rewards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "redemptions_user_id_idempotency_key_index" ON "redemptions" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "redemptions_pending_code_idx" ON "redemptions" USING btree ("shop_id","code") WHERE "redemptions"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "redemptions_gift_once_idx" ON "redemptions" USING btree ("card_id","source","source_ref") WHERE "redemptions"."source" <> 'reward' and "redemptions"."status" in ('pending', 'validated');--> statement-breakpoint
CREATE INDEX "redemptions_pending_expiry_idx" ON "redemptions" USING btree ("expires_at") WHERE "redemptions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "redemptions_shop_id_created_at_index" ON "redemptions" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "redemptions_card_id_reward_id_index" ON "redemptions" USING btree ("card_id","reward_id");--> statement-breakpoint
CREATE INDEX "redemptions_user_id_created_at_index" ON "redemptions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "rewards_shop_id_position_index" ON "rewards" USING btree ("shop_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "vip_tiers_shop_id_threshold_index" ON "vip_tiers" USING btree ("shop_id","threshold");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_refund_once_idx" ON "ledger_entries" USING btree ("ref_id") WHERE "ledger_entries"."kind" = 'refund';--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_delta_check" CHECK ("ledger_entries"."delta" <> 0 or "ledger_entries"."kind" = 'validation');