CREATE TABLE "sms_budgets" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"monthly_segments" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_budgets_monthly_segments_check" CHECK ("sms_budgets"."monthly_segments" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text,
	"to" text NOT NULL,
	"text" text NOT NULL,
	"kind" text NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"segments" integer NOT NULL,
	"answer" text,
	"provider_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_usage" (
	"shop_id" text NOT NULL,
	"month" text NOT NULL,
	"segments" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "sms_usage_shop_id_month_pk" PRIMARY KEY("shop_id","month"),
	CONSTRAINT "sms_usage_segments_check" CHECK ("sms_usage"."segments" >= 0)
);
--> statement-breakpoint
ALTER TABLE "sms_budgets" ADD CONSTRAINT "sms_budgets_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD CONSTRAINT "sms_outbox_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_usage" ADD CONSTRAINT "sms_usage_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sms_outbox_created_at_index" ON "sms_outbox" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sms_outbox_shop_id_created_at_index" ON "sms_outbox" USING btree ("shop_id","created_at");