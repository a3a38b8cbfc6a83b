import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "./migrate.ts";
import { BASELINE_MIGRATION, findLockingStatements } from "./migration-locks.ts";

const base = { idx: 1, tag: "0001_base", sql: 'CREATE TABLE "scans" ("id" text PRIMARY KEY, "shop_id" text);\n' };
const withLater = (sql: string) => [base, { idx: BASELINE_MIGRATION + 1, tag: "0099_new", sql }];

describe("migrations that would lock a big table (issue 23 item 6)", () => {
  it.each([
    ['CREATE INDEX "scans_shop_idx" ON "scans" ("shop_id");', "index"],
    ['ALTER TABLE "scans" ALTER COLUMN "shop_id" SET DATA TYPE uuid;', "type"],
    ['ALTER TABLE "scans" ALTER COLUMN "shop_id" SET NOT NULL;', "not null"],
    ['ALTER TABLE "scans" ADD COLUMN "token" text DEFAULT gen_random_uuid()::text;', "volatile default"],
    ['ALTER TABLE "scans" ADD CONSTRAINT "scans_shop_fk" FOREIGN KEY ("shop_id") REFERENCES "shops"("id");', "fk"],
    ["UPDATE scans SET shop_id = 'x';", "update everything"],
  ])("refuses %s (%s) on a table an earlier migration made", (sql) => {
    expect(findLockingStatements(withLater(sql))).toHaveLength(1);
  });

  it.each([
    ['CREATE INDEX CONCURRENTLY "scans_shop_idx" ON "scans" ("shop_id");'],
    ['ALTER TABLE "scans" ADD COLUMN "note" text;'],
    ['ALTER TABLE "scans" ADD COLUMN "n" integer DEFAULT 0 NOT NULL;'],
    ['ALTER TABLE "scans" ADD CONSTRAINT "scans_shop_fk" FOREIGN KEY ("shop_id") REFERENCES "shops"("id") NOT VALID;'],
    ["UPDATE scans SET shop_id = 'x' WHERE shop_id IS NULL AND false;"],
    ['-- lock-ok: a handful of rows per shop\nCREATE INDEX "scans_shop_idx" ON "scans" ("shop_id");'],
    [
      'CREATE TABLE "lots" ("id" text, "shop_id" text);\n--> statement-breakpoint\nCREATE INDEX "lots_idx" ON "lots" ("shop_id");',
    ],
  ])("lets %s through", (sql) => {
    expect(findLockingStatements(withLater(sql))).toEqual([]);
  });

  it("the committed migrations pass (new ones say why a lock is fine, or avoid it)", () => {
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as {
      entries: { idx: number; tag: string }[];
    };
    const migrations = journal.entries.map((e) => ({
      ...e,
      sql: readFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), "utf8"),
    }));
    expect(findLockingStatements(migrations)).toEqual([]);
  });
});
