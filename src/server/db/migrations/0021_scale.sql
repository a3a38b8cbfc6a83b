CREATE TABLE "shop_daily_deltas" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shop_daily_deltas_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"shop_id" text NOT NULL,
	"day" date NOT NULL,
	"new_customers" integer DEFAULT 0 NOT NULL,
	"scans" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"flagged" integer DEFAULT 0 NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"redemptions" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shop_daily_stats" (
	"shop_id" text NOT NULL,
	"day" date NOT NULL,
	"new_customers" integer DEFAULT 0 NOT NULL,
	"scans" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"flagged" integer DEFAULT 0 NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"redemptions" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "shop_daily_stats_shop_id_day_pk" PRIMARY KEY("shop_id","day")
);
--> statement-breakpoint
CREATE TABLE "shop_devices" (
	"shop_id" text NOT NULL,
	"device_id" text NOT NULL,
	"device_no" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shop_devices_shop_id_device_id_pk" PRIMARY KEY("shop_id","device_id")
);
--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "sort_name" text DEFAULT ' ' NOT NULL;--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "search_text" text DEFAULT '  ' NOT NULL;--> statement-breakpoint
ALTER TABLE "shop_daily_deltas" ADD CONSTRAINT "shop_daily_deltas_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_daily_stats" ADD CONSTRAINT "shop_daily_stats_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_devices" ADD CONSTRAINT "shop_devices_shop_id_shops_id_fk" FOREIGN KEY ("shop_id") REFERENCES "public"."shops"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shop_daily_deltas_shop_id_day_index" ON "shop_daily_deltas" USING btree ("shop_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_devices_shop_id_device_no_index" ON "shop_devices" USING btree ("shop_id","device_no");--> statement-breakpoint
-- Issue 11, hand-written. The trigger functions' bodies live in src/server/db/functions/daily-stats.sql and
-- customer-text.sql, applied right after the migrations; here they are made empty so the triggers can be created.
CREATE OR REPLACE FUNCTION fidele_daily_stats_cards() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_daily_stats_ledger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_daily_stats_scans() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_daily_stats_timezone() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_card_text_card() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_card_text_person() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
--> statement-breakpoint
CREATE TRIGGER cards_daily_stats AFTER INSERT ON cards REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fidele_daily_stats_cards();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_daily_stats AFTER INSERT ON ledger_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fidele_daily_stats_ledger();
--> statement-breakpoint
CREATE TRIGGER scans_daily_stats AFTER INSERT ON scans REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION fidele_daily_stats_scans();
--> statement-breakpoint
CREATE TRIGGER shops_daily_stats_timezone AFTER UPDATE OF timezone ON shops
  FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone) EXECUTE FUNCTION fidele_daily_stats_timezone();
--> statement-breakpoint
CREATE TRIGGER cards_text_insert BEFORE INSERT ON cards
  FOR EACH ROW EXECUTE FUNCTION fidele_card_text_card();
--> statement-breakpoint
CREATE TRIGGER cards_text_user BEFORE UPDATE ON cards
  FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION fidele_card_text_card();
--> statement-breakpoint
CREATE TRIGGER profiles_card_text AFTER INSERT OR DELETE OR UPDATE OF first_name, last_name ON profiles
  FOR EACH ROW EXECUTE FUNCTION fidele_card_text_person();
--> statement-breakpoint
CREATE TRIGGER user_card_text AFTER UPDATE OF email ON "user"
  FOR EACH ROW EXECUTE FUNCTION fidele_card_text_person();
--> statement-breakpoint
-- Backfill: every shop's days in its time zone, its devices numbered by first scan, and the
-- cards' name and search text (the fold of SEARCH_FOLD_FROM/TO, src/domain/loyalty/shop-text.ts).
INSERT INTO shop_daily_stats (shop_id, day, new_customers, scans, refused, flagged, points, redemptions)
  SELECT x.shop_id, x.day, sum(x.nc), sum(x.sc), sum(x.rf), sum(x.fl), sum(x.pt), sum(x.rd)
  FROM (
    SELECT c.shop_id, (c.created_at AT TIME ZONE s.timezone)::date AS day, 1 AS nc, 0 AS sc, 0 AS rf, 0 AS fl, 0 AS pt, 0 AS rd
      FROM cards c JOIN shops s ON s.id = c.shop_id
    UNION ALL
    SELECT x.shop_id, (x.created_at AT TIME ZONE s.timezone)::date, 0, (x.outcome = 'accepted')::int,
           (x.outcome <> 'accepted')::int, (cardinality(x.flags) > 0)::int, 0, 0
      FROM scans x JOIN shops s ON s.id = x.shop_id
    UNION ALL
    SELECT l.shop_id, (l.created_at AT TIME ZONE s.timezone)::date, 0, 0, 0, 0,
           CASE WHEN l.kind IN ('scan', 'double_points', 'bonus') THEN l.delta ELSE 0 END, (l.kind = 'redemption')::int
      FROM ledger_entries l JOIN shops s ON s.id = l.shop_id
      WHERE l.kind IN ('scan', 'double_points', 'bonus', 'redemption')
  ) x
  GROUP BY x.shop_id, x.day;
--> statement-breakpoint
INSERT INTO shop_devices (shop_id, device_id, device_no, first_seen_at)
  SELECT shop_id, device_id, row_number() OVER (PARTITION BY shop_id ORDER BY min(created_at), device_id), min(created_at)
  FROM scans WHERE shop_id IS NOT NULL AND device_id IS NOT NULL GROUP BY shop_id, device_id;
--> statement-breakpoint
UPDATE cards c SET sort_name = t.sort_name, search_text = t.search_text
  FROM (
    SELECT k.id, lower(coalesce(p.last_name, '') || ' ' || coalesce(p.first_name, '')) AS sort_name,
           translate(lower(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '') || ' ' || coalesce(u.email, '')),
                     'àâäáãåçéèêëíìîïñóòôöõúùûüýÿ', 'aaaaaaceeeeiiiinooooouuuuyy') AS search_text
    FROM cards k LEFT JOIN profiles p ON p.id = k.user_id LEFT JOIN "user" u ON u.id = k.user_id
  ) t
  WHERE t.id = c.id;
--> statement-breakpoint
-- The customers list by name, read forwards or backwards (customers.service.ts, SORTS.name).
CREATE INDEX IF NOT EXISTS "cards_shop_sort_name_idx" ON "cards" ("shop_id", "sort_name", "id");
--> statement-breakpoint
-- JIT off for the app's connections (issue 11): its queries are short, and compiling cost more than it saved
-- (the small shop's dashboard spent 8.8 ms compiling). New sessions take it; without the right to alter the
-- database (not its owner), the migration goes on and says so.
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET jit = off', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'jit left as it is: not allowed to alter database %', current_database();
END
$$;
--> statement-breakpoint
-- The platform's accepted scans by time (/api/admin/overview: the last 30 days, per UTC day), read by index only.
CREATE INDEX IF NOT EXISTS "scans_accepted_created_idx" ON "scans" ("created_at") WHERE "outcome" = 'accepted';
