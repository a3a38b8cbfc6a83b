CREATE TABLE "prepaid_products" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"quantity" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"validity_months" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prepaid_products_quantity_check" CHECK ("prepaid_products"."quantity" > 0),
	CONSTRAINT "prepaid_products_price_check" CHECK ("prepaid_products"."price_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "prepaid_holdings" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"product_id" text,
	"user_id" text,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"code" text NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"claim_code" text,
	"recipient_email" text,
	"sold_by" text,
	"payment_method" text,
	"price_cents" integer,
	"idempotency_key" text,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prepaid_holdings_balance_check" CHECK ("prepaid_holdings"."balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "prepaid_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "prepaid_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"holding_id" text NOT NULL,
	"shop_id" text NOT NULL,
	"kind" text NOT NULL,
	"delta" integer NOT NULL,
	"actor_id" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prepaid_entries_delta_check" CHECK ("prepaid_entries"."delta" <> 0)
);
--> statement-breakpoint
CREATE TABLE "import_invitations" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"shop_id" text NOT NULL,
	"batch_id" text NOT NULL,
	"line" integer NOT NULL,
	"code" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text,
	"points" integer DEFAULT 0 NOT NULL,
	"prepaid_kind" text,
	"prepaid_amount" integer,
	"prepaid_title" text,
	"prepaid_expires_at" timestamp with time zone,
	"created_by" text,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_invitations_points_check" CHECK ("import_invitations"."points" >= 0)
);
--> statement-breakpoint
ALTER TABLE "prepaid_products" ADD CONSTRAINT "prepaid_products_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepaid_holdings" ADD CONSTRAINT "prepaid_holdings_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepaid_holdings" ADD CONSTRAINT "prepaid_holdings_product_id_prepaid_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."prepaid_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepaid_holdings" ADD CONSTRAINT "prepaid_holdings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepaid_entries" ADD CONSTRAINT "prepaid_entries_holding_id_prepaid_holdings_id_fk" FOREIGN KEY ("holding_id") REFERENCES "public"."prepaid_holdings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prepaid_entries" ADD CONSTRAINT "prepaid_entries_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_invitations" ADD CONSTRAINT "import_invitations_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prepaid_products_shop_id_index" ON "prepaid_products" USING btree ("shop_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prepaid_holdings_shop_id_code_index" ON "prepaid_holdings" USING btree ("shop_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "prepaid_holdings_claim_code_index" ON "prepaid_holdings" USING btree ("claim_code");--> statement-breakpoint
CREATE UNIQUE INDEX "prepaid_holdings_sold_by_idempotency_key_index" ON "prepaid_holdings" USING btree ("sold_by","idempotency_key");--> statement-breakpoint
CREATE INDEX "prepaid_holdings_user_id_index" ON "prepaid_holdings" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "prepaid_holdings_shop_id_created_at_index" ON "prepaid_holdings" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "prepaid_entries_actor_id_idempotency_key_index" ON "prepaid_entries" USING btree ("actor_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "prepaid_entries_holding_id_index" ON "prepaid_entries" USING btree ("holding_id");--> statement-breakpoint
CREATE INDEX "prepaid_entries_shop_id_created_at_index" ON "prepaid_entries" USING btree ("shop_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "import_invitations_code_index" ON "import_invitations" USING btree ("code");--> statement-breakpoint
CREATE INDEX "import_invitations_shop_id_batch_id_index" ON "import_invitations" USING btree ("shop_id","batch_id");--> statement-breakpoint
-- The prepaid ledger is append-only and each holding's balance follows it (ADR 0049). The trigger functions' bodies
-- are functions/prepaid.sql's (ADR 0043): here they only exist so the triggers can be created.
CREATE OR REPLACE FUNCTION fidele_prepaid_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'prepaid_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege'; END
$$;
--> statement-breakpoint
CREATE TRIGGER prepaid_entries_append_only BEFORE UPDATE OR DELETE ON prepaid_entries
  FOR EACH ROW EXECUTE FUNCTION fidele_prepaid_append_only();
--> statement-breakpoint
CREATE TRIGGER prepaid_entries_no_truncate BEFORE TRUNCATE ON prepaid_entries
  FOR EACH STATEMENT EXECUTE FUNCTION fidele_prepaid_append_only();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_prepaid_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'fidele_prepaid_apply: its body (functions/prepaid.sql) is applied after the migrations'; END
$$;
--> statement-breakpoint
CREATE TRIGGER prepaid_entries_apply AFTER INSERT ON prepaid_entries
  FOR EACH ROW EXECUTE FUNCTION fidele_prepaid_apply();
