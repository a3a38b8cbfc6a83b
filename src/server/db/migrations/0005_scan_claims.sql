CREATE TABLE "scan_claims" (
	"nonce" text PRIMARY KEY NOT NULL,
	"shop_id" text NOT NULL,
	"user_id" text,
	"idempotency_key" text NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scan_claims" ADD CONSTRAINT "scan_claims_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scan_claims" ADD CONSTRAINT "scan_claims_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scan_claims_used_at_index" ON "scan_claims" USING btree ("used_at");