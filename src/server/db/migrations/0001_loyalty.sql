CREATE TABLE "double_points_periods" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"label" text NOT NULL,
	"start_date" date,
	"end_date" date,
	"weekdays" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"start_time" text,
	"end_time" text,
	"multiplier" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "double_points_multiplier_check" CHECK ("double_points_periods"."multiplier" between 2 and 5)
);
--> statement-breakpoint
CREATE TABLE "shop_reviews" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"user_id" text NOT NULL,
	"rating" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_reviews_rating_check" CHECK ("shop_reviews"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "shops" (
	"id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"scan_uid" text NOT NULL,
	"code_secret" text NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"address" text NOT NULL,
	"city" text NOT NULL,
	"postal_code" text NOT NULL,
	"phone" text NOT NULL,
	"siret" text,
	"lat" double precision,
	"lng" double precision,
	"description" text,
	"logo" text,
	"cover" text,
	"links" jsonb DEFAULT '{"website":null,"instagram":null,"facebook":null,"tiktok":null}'::jsonb NOT NULL,
	"legal" jsonb,
	"status" text DEFAULT 'active' NOT NULL,
	"suspended_reason" text,
	"suspended_at" timestamp with time zone,
	"card_mode" text DEFAULT 'stamps' NOT NULL,
	"stamps_goal" integer DEFAULT 10 NOT NULL,
	"points_per_visit" integer DEFAULT 10 NOT NULL,
	"cooldown_minutes" integer DEFAULT 240 NOT NULL,
	"daily_cap" integer DEFAULT 2 NOT NULL,
	"allow_static_poster" boolean DEFAULT false NOT NULL,
	"card_design" jsonb NOT NULL,
	"weekly_hours" jsonb DEFAULT '[[],[],[],[],[],[],[]]'::jsonb NOT NULL,
	"closures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"timezone" text DEFAULT 'Europe/Paris' NOT NULL,
	"config_version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shops_slug_unique" UNIQUE("slug"),
	CONSTRAINT "shops_scanUid_unique" UNIQUE("scan_uid"),
	CONSTRAINT "shops_rules_check" CHECK ("shops"."stamps_goal" > 0 and "shops"."points_per_visit" > 0 and "shops"."cooldown_minutes" >= 0 and "shops"."daily_cap" > 0)
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"user_id" text,
	"balance" integer DEFAULT 0 NOT NULL,
	"lifetime" integer DEFAULT 0 NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"last_scan_at" timestamp with time zone,
	"day_key" date,
	"day_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cards_balance_check" CHECK ("cards"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"card_id" text NOT NULL,
	"shop_id" text NOT NULL,
	"kind" text NOT NULL,
	"delta" integer NOT NULL,
	"actor_id" text,
	"reason" text,
	"ref_id" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_delta_check" CHECK ("ledger_entries"."delta" <> 0)
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text,
	"user_id" text,
	"actor_id" text NOT NULL,
	"card_id" text,
	"scan_uid" text NOT NULL,
	"outcome" text NOT NULL,
	"method" text NOT NULL,
	"delta" integer DEFAULT 0 NOT NULL,
	"multiplier" integer DEFAULT 1 NOT NULL,
	"flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"device_id" text,
	"idempotency_key" text NOT NULL,
	"response" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "double_points_periods" ADD CONSTRAINT "double_points_periods_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_reviews" ADD CONSTRAINT "shop_reviews_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_reviews" ADD CONSTRAINT "shop_reviews_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shops" ADD CONSTRAINT "shops_id_organization_id_fk" FOREIGN KEY ("id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "double_points_periods_shop_id_index" ON "double_points_periods" USING btree ("shop_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_reviews_shop_id_user_id_index" ON "shop_reviews" USING btree ("shop_id","user_id");--> statement-breakpoint
CREATE INDEX "shop_reviews_shop_id_updated_at_index" ON "shop_reviews" USING btree ("shop_id","updated_at");--> statement-breakpoint
CREATE INDEX "shops_city_index" ON "shops" USING btree ("city");--> statement-breakpoint
CREATE INDEX "shops_category_index" ON "shops" USING btree ("category");--> statement-breakpoint
CREATE UNIQUE INDEX "cards_shop_id_user_id_index" ON "cards" USING btree ("shop_id","user_id");--> statement-breakpoint
CREATE INDEX "cards_user_id_index" ON "cards" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "cards_shop_id_last_scan_at_index" ON "cards" USING btree ("shop_id","last_scan_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_actor_id_idempotency_key_index" ON "ledger_entries" USING btree ("actor_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_entries_card_id_created_at_index" ON "ledger_entries" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_shop_id_created_at_index" ON "ledger_entries" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "scans_actor_id_idempotency_key_index" ON "scans" USING btree ("actor_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "scans_shop_id_created_at_index" ON "scans" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "scans_card_id_created_at_index" ON "scans" USING btree ("card_id","created_at");--> statement-breakpoint
CREATE INDEX "scans_device_id_created_at_index" ON "scans" USING btree ("device_id","created_at");