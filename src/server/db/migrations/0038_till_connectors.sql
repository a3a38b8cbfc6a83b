-- Issue 29 item 5: one real till connector, Zettle (ADR 0051). A shop's connection and every sale or refund seen.
CREATE TABLE "till_connections" (
	"shop_id" text PRIMARY KEY NOT NULL,
	"vendor" text NOT NULL,
	"client_id" text NOT NULL,
	"api_key" text NOT NULL,
	"organization_uuid" text NOT NULL,
	"subscription_uuid" text NOT NULL,
	"signing_key" text NOT NULL,
	"hook_id" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_event_at" timestamp with time zone,
	CONSTRAINT "till_connections_hook_id_unique" UNIQUE("hook_id"),
	CONSTRAINT "till_connections_vendor_check" CHECK ("till_connections"."vendor" in ('zettle') and "till_connections"."status" in ('active', 'refused'))
);
--> statement-breakpoint
CREATE TABLE "till_sales" (
	"shop_id" text NOT NULL,
	"vendor" text NOT NULL,
	"purchase_id" text NOT NULL,
	"kind" text NOT NULL,
	"refunds_purchase_id" text,
	"purchase_number" text,
	"user_id" text,
	"amount_cents" integer NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"outcome" text NOT NULL,
	"scan_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "till_sales_shop_id_vendor_purchase_id_pk" PRIMARY KEY("shop_id","vendor","purchase_id"),
	CONSTRAINT "till_sales_kind_check" CHECK ("till_sales"."kind" in ('sale', 'refund'))
);
--> statement-breakpoint
ALTER TABLE "till_connections" ADD CONSTRAINT "till_connections_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "till_sales" ADD CONSTRAINT "till_sales_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "till_sales" ADD CONSTRAINT "till_sales_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "till_sales_shop_id_created_at_index" ON "till_sales" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE INDEX "till_sales_refunds_index" ON "till_sales" USING btree ("shop_id","vendor","refunds_purchase_id") WHERE "till_sales"."refunds_purchase_id" is not null;
