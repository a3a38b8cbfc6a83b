-- Issue 11. Back-office lists (src/server/modules/cards/customers.service.ts) read a page in the order of its sort: one
-- index per sort key, (shop_id, key, id), read forwards or backwards; a customer never seen sorts as -infinity.
-- Written here by hand (expressions drizzle-kit does not model); not in the Drizzle schema.
CREATE INDEX IF NOT EXISTS "cards_shop_last_scan_idx" ON "cards" ("shop_id", (coalesce("last_scan_at", '-infinity'::timestamptz)), "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cards_shop_balance_idx" ON "cards" ("shop_id", "balance", "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cards_shop_lifetime_idx" ON "cards" ("shop_id", "lifetime", "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cards_shop_visits_idx" ON "cards" ("shop_id", "visits", "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "cards_shop_created_idx" ON "cards" ("shop_id", "created_at", "id");
--> statement-breakpoint
-- Scans: flagged first, then newest (read backwards); and the flagged ones alone (dashboard, "à vérifier").
CREATE INDEX IF NOT EXISTS "scans_shop_flagged_time_idx" ON "scans" ("shop_id", (cardinality("flags") > 0), "created_at", "id");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "scans_shop_flagged_only_idx" ON "scans" ("shop_id", "created_at") WHERE cardinality("flags") > 0;
