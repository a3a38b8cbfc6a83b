-- Issue 22 rows 3 and 7 (ADR 0033). A contest can no longer ask for a points level: VIP-only contests become
-- customers-only (everyone who could enter still can), and customers-only is the default.
UPDATE "contests" SET "eligibility" = 'customers' WHERE "eligibility" = 'vip';--> statement-breakpoint
ALTER TABLE "contests" DROP COLUMN "vip_tier_id";--> statement-breakpoint
ALTER TABLE "contests" ALTER COLUMN "eligibility" SET DEFAULT 'customers';--> statement-breakpoint
-- What links accounts of one person: the device id the phone keeps and the network prefix (never the address).
ALTER TABLE "contest_entries" ADD COLUMN "device_id" text;--> statement-breakpoint
ALTER TABLE "contest_entries" ADD COLUMN "network" text;--> statement-breakpoint
-- lock-ok: partial indexes on columns just added (every existing row is NULL, so nothing is inserted): one scan of
-- contest entries, a few thousand rows per contest.
CREATE INDEX "contest_entries_device_idx" ON "contest_entries" USING btree ("contest_id","device_id") WHERE "device_id" IS NOT NULL;--> statement-breakpoint
-- lock-ok: as above.
CREATE INDEX "contest_entries_network_idx" ON "contest_entries" USING btree ("contest_id","network") WHERE "network" IS NOT NULL;
