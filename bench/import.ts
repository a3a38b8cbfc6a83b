import { randomUUID } from "node:crypto";
import { openDatabase } from "../src/server/db/client.ts";
import { createShop, createUser } from "../src/server/db/factories.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { commitImport, previewImport } from "../src/server/modules/prepaid/import.service.ts";
import { createDeps } from "../src/server/server.ts";
import { importFile } from "./import-file.ts";
import { writeResult } from "./lib.ts";
import { benchEnv } from "./scan-server.ts";

/**
 * Issue 28 item 4: a 10,000-line import file with errors previews in under 5 s. The preview and the import as the
 * owner's requests run them (the service, on an embedded database in memory, and on PostgreSQL when
 * BENCH_IMPORT_URL is set), median of 3 runs each. Budget: the preview under 5 s on either database.
 */
const LINES = 10_000;
const BUDGET_MS = 5_000;

async function measure(database: Awaited<ReturnType<typeof openDatabase>>, label: string) {
  const deps = await createDeps(benchEnv(), { database, logger: createLogger("warn") });
  const owner = await createUser(deps, { withoutPassword: true });
  const previews: number[] = [];
  const imports: number[] = [];
  for (let run = 0; run < 3; run++) {
    const shop = await createShop(deps, { ownerId: owner.id });
    const access = { shopId: shop.id, userId: owner.id, role: "owner" as const, level: "owner" as const };
    const { csv, expected } = importFile(LINES, randomUUID().slice(0, 8));
    let started = performance.now();
    const preview = await previewImport(deps.db, access, csv);
    previews.push(performance.now() - started);
    if (preview.counts.ok !== expected.ok)
      throw new Error(`preview counted ${preview.counts.ok}, expected ${expected.ok}`);
    started = performance.now();
    await commitImport(deps.db, access, csv);
    imports.push(performance.now() - started);
  }
  await deps.jobs.stop();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  const row = {
    database: label,
    lines: LINES,
    previewMs: Math.round(median(previews)),
    importMs: Math.round(median(imports)),
  };
  console.log(`${label}: preview ${row.previewMs} ms, import ${row.importMs} ms (${LINES} lines, median of 3)`);
  return row;
}

export async function runImport(): Promise<boolean> {
  const rows = [];
  const pglite = await openDatabase({ memory: true, worker: false });
  try {
    rows.push(await measure(pglite, "pglite"));
  } finally {
    await pglite.close();
  }
  const url = process.env.BENCH_IMPORT_URL;
  if (url) {
    const pg = await openDatabase({ url });
    try {
      rows.push(await measure(pg, "postgresql"));
    } finally {
      await pg.close();
    }
  }
  writeResult("import", { budgetMs: BUDGET_MS, rows });
  return rows.every((r) => r.previewMs < BUDGET_MS);
}
