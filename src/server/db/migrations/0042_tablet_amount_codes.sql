-- Each amount code a counter tablet made, for the owner's day beside the till's takings (ADR 0054).
CREATE TABLE "tablet_amount_codes" (
	"receipt_id" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"tablet_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"points" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tablet_amount_codes" ADD CONSTRAINT "tablet_amount_codes_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tablet_amount_codes" ADD CONSTRAINT "tablet_amount_codes_tablet_id_counter_tablets_id_fk" FOREIGN KEY ("tablet_id") REFERENCES "public"."counter_tablets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tablet_amount_codes_tablet_id_created_at_index" ON "tablet_amount_codes" USING btree ("tablet_id","created_at");