-- A use typed wrong at the till is given back by a `cancel` entry that names it; each use is cancelled once (ADR 0049).
ALTER TABLE "prepaid_entries" ADD COLUMN "reverses_id" bigint;--> statement-breakpoint
-- lock-ok: prepaid_entries holds a few rows per bundle or gift card sold since 0033; the index is built in one short scan.
CREATE UNIQUE INDEX "prepaid_entries_reverses_id_index" ON "prepaid_entries" USING btree ("reverses_id");
