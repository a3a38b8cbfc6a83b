CREATE TABLE "automation_occasions" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"automation_id" text NOT NULL,
	"shop_id" text NOT NULL,
	"user_id" text NOT NULL,
	"card_id" text NOT NULL,
	"occasion" text NOT NULL,
	"since" timestamp with time zone,
	"decided_at" timestamp with time zone NOT NULL,
	"holdout" boolean NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"message_id" text,
	"visits" integer DEFAULT 0 NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"rewards" integer DEFAULT 0 NOT NULL,
	"reached" boolean DEFAULT false NOT NULL,
	"measured_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"kind" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"enabled_at" timestamp with time zone,
	"with_push" boolean DEFAULT true NOT NULL,
	"with_email" boolean DEFAULT false NOT NULL,
	"with_sms" boolean DEFAULT false NOT NULL,
	"days" integer,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"holdout_percent" integer DEFAULT 10 NOT NULL,
	"expected_next_week" integer,
	"expected_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automations_holdout_check" CHECK ("automations"."holdout_percent" between 0 and 50),
	CONSTRAINT "automations_days_check" CHECK ("automations"."days" is null or "automations"."days" between 1 and 365)
);
--> statement-breakpoint
CREATE TABLE "shop_cohort_folds" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"folded_through" date NOT NULL,
	"timezone" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_cohort_months" (
	"shop_id" text NOT NULL,
	"cohort_month" date NOT NULL,
	"month" date NOT NULL,
	"customers" integer NOT NULL,
	CONSTRAINT "shop_cohort_months_shop_id_cohort_month_month_pk" PRIMARY KEY("shop_id","cohort_month","month")
);
--> statement-breakpoint
CREATE TABLE "shop_rhythms" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"median_days" double precision,
	"regulars" integer NOT NULL,
	"at_risk" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD CONSTRAINT "automation_occasions_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD CONSTRAINT "automation_occasions_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD CONSTRAINT "automation_occasions_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD CONSTRAINT "automation_occasions_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_occasions" ADD CONSTRAINT "automation_occasions_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_cohort_folds" ADD CONSTRAINT "shop_cohort_folds_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_cohort_months" ADD CONSTRAINT "shop_cohort_months_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_rhythms" ADD CONSTRAINT "shop_rhythms_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_occasions_automation_id_user_id_occasion_index" ON "automation_occasions" USING btree ("automation_id","user_id","occasion");--> statement-breakpoint
CREATE INDEX "automation_occasions_automation_id_decided_at_index" ON "automation_occasions" USING btree ("automation_id","decided_at");--> statement-breakpoint
CREATE INDEX "automation_occasions_message_id_index" ON "automation_occasions" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "automation_occasions_user_id_index" ON "automation_occasions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "automations_shop_id_kind_index" ON "automations" USING btree ("shop_id","kind");