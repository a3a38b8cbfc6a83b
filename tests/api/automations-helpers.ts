import { sql } from "drizzle-orm";
import { processMessageBatch } from "../../src/server/modules/messages/sending.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { openOwnDatabase } from "../setup/test-db.ts";

/**
 * The automations' API tests (issue 27, ADR 0046). Runs with the clock moved weeks ahead decide every shop's
 * automations, so each file has a database of its own (a scratch database on PostgreSQL, a fresh PGlite otherwise:
 * the worker's shared PGlite holds other files' shops, whose automations those runs would decide too).
 */
export async function scratchTestApp(
  name: string,
  env?: Record<string, string>,
): Promise<{ t: TestApp; close: () => Promise<void> }> {
  const own = await openOwnDatabase(name, 4);
  const t = await createTestApp({ database: own.database, env });
  return {
    t,
    close: async () => {
      await t.close();
      await own.drop();
    },
  };
}

/** Delivers every message the shop's automations created (in-app; the job engine does it in a server). */
export async function deliverAll(t: TestApp, shopId: string) {
  const ids = await t.deps.db.execute<{ id: string }>(
    sql`select id from messages where shop_id = ${shopId} and kind = 'automation' and status = 'sending'`,
  );
  for (const { id } of ids.rows) {
    for (let i = 0; i < 10; i++) if ((await processMessageBatch(t.deps, id)).remaining === 0) break;
  }
}
