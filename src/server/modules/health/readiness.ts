import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { MIGRATIONS_DIR } from "../../db/migrate.ts";

let newest: number | undefined;
/** The `when` of this build's newest migration (drizzle applies those newer than the last one it recorded). */
function newestMigration(): number {
  newest ??= Math.max(
    ...(
      JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as {
        entries: { when: number }[];
      }
    ).entries.map((e) => e.when),
  );
  return newest;
}

/** Whether the database has every migration of this build (a newer build's extra ones are fine). */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const [row] = (
    await db.execute<{ applied: string | number | null }>(
      sql`select max(created_at) as applied from drizzle.__drizzle_migrations`,
    )
  ).rows;
  return Number(row?.applied ?? 0) >= newestMigration();
}
