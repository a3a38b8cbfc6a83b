-- Issue 29 item 6: a shop's counter tablets (ADR 0054).
CREATE TABLE "counter_tablets" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"name" text NOT NULL,
	"pin_hash" text NOT NULL,
	"pairing_hash" text,
	"pairing_expires_at" timestamp with time zone,
	"token_hash" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paired_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "counter_tablets_pairing_hash_unique" UNIQUE("pairing_hash"),
	CONSTRAINT "counter_tablets_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "counter_tablets" ADD CONSTRAINT "counter_tablets_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "counter_tablets_shop_id_index" ON "counter_tablets" USING btree ("shop_id");
