CREATE TABLE "contest_entries" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"contest_id" text NOT NULL,
	"user_id" text,
	"period" text NOT NULL,
	"n" integer DEFAULT 1 NOT NULL,
	"prize_id" text,
	"marketing_consent" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contest_prizes" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"contest_id" text NOT NULL,
	"lot_id" text NOT NULL,
	"position" integer NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"odds_bp" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "contest_prizes_quantity_check" CHECK ("contest_prizes"."quantity" > 0),
	CONSTRAINT "contest_prizes_odds_check" CHECK ("contest_prizes"."odds_bp" between 0 and 10000)
);
--> statement-breakpoint
CREATE TABLE "contest_rules" (
	"contest_id" text NOT NULL,
	"version" integer NOT NULL,
	"document" jsonb NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contest_rules_contest_id_version_pk" PRIMARY KEY("contest_id","version")
);
--> statement-breakpoint
CREATE TABLE "contest_winnings" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"contest_id" text NOT NULL,
	"prize_id" text NOT NULL,
	"lot_id" text NOT NULL,
	"entry_id" text,
	"user_id" text,
	"draw_rank" integer,
	"code" text NOT NULL,
	"status" text DEFAULT 'to_hand_over' NOT NULL,
	"claim_by" timestamp with time zone NOT NULL,
	"handed_over_at" timestamp with time zone,
	"handed_over_by" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contests" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"eligibility" text DEFAULT 'confirmed' NOT NULL,
	"vip_tier_id" text,
	"entries_per_person" integer DEFAULT 1 NOT NULL,
	"spin_period" text DEFAULT 'day' NOT NULL,
	"seed" text,
	"seed_commitment" text,
	"entrants_hash" text,
	"entrants" jsonb,
	"drawn_at" timestamp with time zone,
	"scheduled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contests_dates_check" CHECK ("contests"."ends_at" > "contests"."starts_at"),
	CONSTRAINT "contests_entries_check" CHECK ("contests"."entries_per_person" between 1 and 10)
);
--> statement-breakpoint
CREATE TABLE "featured_contests" (
	"slot" text PRIMARY KEY NOT NULL,
	"contest_id" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prize_lots" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"photo" text,
	"value_cents" integer NOT NULL,
	"quantity" integer NOT NULL,
	"remaining" integer NOT NULL,
	"handover" text NOT NULL,
	"points" integer,
	"claim_days" integer NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prize_lots_remaining_check" CHECK ("prize_lots"."remaining" >= 0 and "prize_lots"."remaining" <= "prize_lots"."quantity"),
	CONSTRAINT "prize_lots_value_check" CHECK ("prize_lots"."value_cents" >= 0),
	CONSTRAINT "prize_lots_claim_days_check" CHECK ("prize_lots"."claim_days" > 0),
	CONSTRAINT "prize_lots_points_check" CHECK ("prize_lots"."handover" <> 'points' or "prize_lots"."points" > 0)
);
--> statement-breakpoint
ALTER TABLE "contest_entries" ADD CONSTRAINT "contest_entries_contest_id_contests_id_fk" FOREIGN KEY ("contest_id") REFERENCES "public"."contests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_entries" ADD CONSTRAINT "contest_entries_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_entries" ADD CONSTRAINT "contest_entries_prize_id_contest_prizes_id_fk" FOREIGN KEY ("prize_id") REFERENCES "public"."contest_prizes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_prizes" ADD CONSTRAINT "contest_prizes_contest_id_contests_id_fk" FOREIGN KEY ("contest_id") REFERENCES "public"."contests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_prizes" ADD CONSTRAINT "contest_prizes_lot_id_prize_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."prize_lots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_rules" ADD CONSTRAINT "contest_rules_contest_id_contests_id_fk" FOREIGN KEY ("contest_id") REFERENCES "public"."contests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_winnings" ADD CONSTRAINT "contest_winnings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_winnings" ADD CONSTRAINT "contest_winnings_contest_id_contests_id_fk" FOREIGN KEY ("contest_id") REFERENCES "public"."contests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_winnings" ADD CONSTRAINT "contest_winnings_prize_id_contest_prizes_id_fk" FOREIGN KEY ("prize_id") REFERENCES "public"."contest_prizes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_winnings" ADD CONSTRAINT "contest_winnings_lot_id_prize_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."prize_lots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_winnings" ADD CONSTRAINT "contest_winnings_entry_id_contest_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."contest_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contest_winnings" ADD CONSTRAINT "contest_winnings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contests" ADD CONSTRAINT "contests_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contests" ADD CONSTRAINT "contests_vip_tier_id_vip_tiers_id_fk" FOREIGN KEY ("vip_tier_id") REFERENCES "public"."vip_tiers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "featured_contests" ADD CONSTRAINT "featured_contests_contest_id_contests_id_fk" FOREIGN KEY ("contest_id") REFERENCES "public"."contests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prize_lots" ADD CONSTRAINT "prize_lots_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contest_entries_once_idx" ON "contest_entries" USING btree ("contest_id","user_id","period","n");--> statement-breakpoint
CREATE INDEX "contest_entries_user_id_created_at_index" ON "contest_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "contest_prizes_contest_id_lot_id_index" ON "contest_prizes" USING btree ("contest_id","lot_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contest_winnings_code_idx" ON "contest_winnings" USING btree ("shop_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "contest_winnings_rank_idx" ON "contest_winnings" USING btree ("contest_id","draw_rank");--> statement-breakpoint
CREATE INDEX "contest_winnings_shop_id_created_at_index" ON "contest_winnings" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "contest_winnings_user_id_created_at_index" ON "contest_winnings" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "contest_winnings_due_idx" ON "contest_winnings" USING btree ("claim_by") WHERE "contest_winnings"."status" = 'to_hand_over';--> statement-breakpoint
CREATE INDEX "contests_shop_id_created_at_index" ON "contests" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "contests_due_draw_idx" ON "contests" USING btree ("ends_at") WHERE "contests"."status" = 'scheduled' and "contests"."kind" = 'draw';--> statement-breakpoint
CREATE INDEX "prize_lots_shop_id_index" ON "prize_lots" USING btree ("shop_id");