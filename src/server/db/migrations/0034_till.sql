-- Issue 29: points by the amount spent, receipt codes, API keys for tills, signed webhooks (ADR 0050, 0053).
ALTER TABLE "shops" ADD COLUMN "earn_by" text DEFAULT 'visit' NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "points_per_euro" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "amount_rounding" text DEFAULT 'down' NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "receipt_secret" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "receipt_window_minutes" integer DEFAULT 1440 NOT NULL;--> statement-breakpoint
-- lock-ok: one row per shop, and the columns checked were just added with defaults that pass.
ALTER TABLE "shops" ADD CONSTRAINT "shops_earn_check" CHECK ("shops"."earn_by" in ('visit', 'amount') and "shops"."points_per_euro" between 1 and 100 and "shops"."amount_rounding" in ('down', 'nearest', 'up') and "shops"."receipt_window_minutes" between 5 and 43200);--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "amount_cents" integer;--> statement-breakpoint
-- What the scan path caches now includes how the card earns and the receipt key (scan.service.ts).
DROP TRIGGER IF EXISTS shops_bump_version ON shops;--> statement-breakpoint
CREATE TRIGGER shops_bump_version BEFORE UPDATE ON shops FOR EACH ROW
  WHEN (OLD.weekly_hours IS DISTINCT FROM NEW.weekly_hours OR OLD.closures IS DISTINCT FROM NEW.closures
     OR OLD.code_secret IS DISTINCT FROM NEW.code_secret OR OLD.scan_uid IS DISTINCT FROM NEW.scan_uid
     OR OLD.timezone IS DISTINCT FROM NEW.timezone OR OLD.earn_by IS DISTINCT FROM NEW.earn_by
     OR OLD.points_per_euro IS DISTINCT FROM NEW.points_per_euro OR OLD.amount_rounding IS DISTINCT FROM NEW.amount_rounding
     OR OLD.receipt_secret IS DISTINCT FROM NEW.receipt_secret
     OR OLD.receipt_window_minutes IS DISTINCT FROM NEW.receipt_window_minutes)
  EXECUTE FUNCTION fidele_shop_bump_version();--> statement-breakpoint
-- fidele_scan takes the amount, its points and the receipt (functions/scan.sql).
DROP FUNCTION IF EXISTS fidele_scan(text, text, text, text, text, text, integer, jsonb, boolean, text, integer, integer, timestamptz);--> statement-breakpoint
CREATE TABLE "receipt_claims" (
	"shop_id" text NOT NULL,
	"receipt_id" text NOT NULL,
	"user_id" text NOT NULL,
	"scan_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "receipt_claims_shop_id_receipt_id_pk" PRIMARY KEY("shop_id","receipt_id")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
CREATE TABLE "api_idempotency" (
	"key_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" integer,
	"response" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "api_idempotency_key_id_idempotency_key_pk" PRIMARY KEY("key_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"secret" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"endpoint_id" text NOT NULL,
	"shop_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"delivery_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"manual" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "receipt_claims" ADD CONSTRAINT "receipt_claims_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_idempotency" ADD CONSTRAINT "api_idempotency_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_shop_id_index" ON "api_keys" USING btree ("shop_id");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_shop_id_index" ON "webhook_endpoints" USING btree ("shop_id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_index" ON "webhook_deliveries" USING btree ("endpoint_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_shop_id_created_at_index" ON "webhook_deliveries" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_attempts_delivery_id_attempt_index" ON "webhook_attempts" USING btree ("delivery_id","attempt");
