-- Issue 28 items 1 and 2 (ADR 0048): parrainage (programs, share codes, who brought whom) and review requests
-- (settings, requests sent). Hand-written from the schema (ADR 0022: the merge makes the snapshot).
CREATE TABLE "referral_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"user_id" text NOT NULL,
	"device_id" text,
	"network" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_programs" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"sponsor_points" integer,
	"sponsor_reward_id" text,
	"friend_points" integer,
	"friend_reward_id" text,
	"monthly_cap" integer DEFAULT 5 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_programs_cap_check" CHECK ("referral_programs"."monthly_cap" between 1 and 50)
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"sponsor_id" text,
	"friend_id" text,
	"device_id" text,
	"network" text,
	"status" text DEFAULT 'waiting' NOT NULL,
	"flags" text[] DEFAULT '{}'::text[] NOT NULL,
	"visit_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"sponsor_rewarded" boolean,
	"sponsor_gift" text,
	"friend_gift" text,
	"sponsor_reward_id" text,
	"friend_reward_id" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referrals_status_check" CHECK ("referrals"."status" in ('waiting', 'held', 'released', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "review_requests" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"user_id" text NOT NULL,
	"card_id" text NOT NULL,
	"visits" integer NOT NULL,
	"target" text NOT NULL,
	"message_id" text,
	"decided_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_settings" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"target" text DEFAULT 'fidele' NOT NULL,
	"google_url" text,
	"every_visits" integer DEFAULT 1 NOT NULL,
	"with_push" boolean DEFAULT true NOT NULL,
	"with_email" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_settings_every_check" CHECK ("review_settings"."every_visits" between 1 and 100)
);
--> statement-breakpoint
ALTER TABLE "referral_codes" ADD CONSTRAINT "referral_codes_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_codes" ADD CONSTRAINT "referral_codes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_programs" ADD CONSTRAINT "referral_programs_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_sponsor_id_user_id_fk" FOREIGN KEY ("sponsor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_friend_id_user_id_fk" FOREIGN KEY ("friend_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_requests" ADD CONSTRAINT "review_requests_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_settings" ADD CONSTRAINT "review_settings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "referral_codes_shop_id_user_id_index" ON "referral_codes" USING btree ("shop_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "referrals_shop_id_friend_id_index" ON "referrals" USING btree ("shop_id","friend_id");--> statement-breakpoint
CREATE INDEX "referrals_shop_id_sponsor_id_released_at_index" ON "referrals" USING btree ("shop_id","sponsor_id","released_at");--> statement-breakpoint
CREATE INDEX "referrals_shop_id_created_at_index" ON "referrals" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "referrals_waiting_idx" ON "referrals" USING btree ("friend_id") WHERE "referrals"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "review_requests_shop_id_user_id_decided_at_index" ON "review_requests" USING btree ("shop_id","user_id","decided_at");--> statement-breakpoint
CREATE INDEX "review_requests_shop_id_decided_at_index" ON "review_requests" USING btree ("shop_id","decided_at");--> statement-breakpoint
CREATE INDEX "review_requests_message_id_index" ON "review_requests" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "review_requests_user_id_index" ON "review_requests" USING btree ("user_id");--> statement-breakpoint
-- lock-ok: a partial index no existing row matches (no entry is of kind referral yet): one read of the ledger, no
-- row inserted; writes wait for that read only.
CREATE UNIQUE INDEX "ledger_entries_referral_once_idx" ON "ledger_entries" USING btree ("ref_id","card_id") WHERE "ledger_entries"."kind" = 'referral';