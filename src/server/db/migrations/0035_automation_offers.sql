ALTER TABLE "automations" ADD COLUMN "offer_kind" text;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "offer_reward_id" text;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "offer_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD COLUMN "merge" jsonb;--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD COLUMN "offer_kind" text;--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD COLUMN "offer_reward_id" text;--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD COLUMN "offer_until" timestamp with time zone;--> statement-breakpoint
-- lock-ok: automations holds five rows per shop at most, and the columns checked below were just added (all NULL).
ALTER TABLE "automations" ADD CONSTRAINT "automations_offer_reward_id_rewards_id_fk" FOREIGN KEY ("offer_reward_id") REFERENCES "public"."rewards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- lock-ok: the column was just added (all NULL): one read of automation_occasions, nothing to look up.
ALTER TABLE "automation_occasions" ADD CONSTRAINT "automation_occasions_offer_reward_id_rewards_id_fk" FOREIGN KEY ("offer_reward_id") REFERENCES "public"."rewards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- lock-ok: five rows per shop at most, on a column just added (all NULL).
ALTER TABLE "automations" ADD CONSTRAINT "automations_offer_check" CHECK ("automations"."offer_kind" is null or "automations"."offer_kind" in ('double_points', 'reward'));--> statement-breakpoint
-- lock-ok: five rows per shop at most, on a column just added (all 7).
ALTER TABLE "automations" ADD CONSTRAINT "automations_offer_days_check" CHECK ("automations"."offer_days" between 1 and 30);--> statement-breakpoint
-- lock-ok: a partial index on a column just added (every row NULL, so it starts empty): one read of
-- automation_occasions at this upgrade; every scan at the counter probes it.
CREATE INDEX "automation_occasions_offer_card_index" ON "automation_occasions" USING btree ("card_id","offer_until") WHERE "automation_occasions"."offer_kind" is not null;
