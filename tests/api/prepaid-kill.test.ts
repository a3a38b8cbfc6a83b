import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { addStaff, createShop, createUser } from "../../src/server/db/factories.ts";
import { prepaidEntries, prepaidHoldings, prepaidProducts } from "../../src/server/db/schema/index.ts";
import { parseEnv } from "../../src/server/env.ts";
import { callJson } from "../../src/server/lib/db-call.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { createDeps } from "../../src/server/server.ts";
import { migratedDataDir, type ServerProcess, spawnServer, waitHealthy } from "../setup/api.ts";
import { findPrepaidMismatches } from "../setup/ledger.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { LONG_TEST } from "../setup/timing.ts";

/**
 * Issue 28 (ADR 0049): the prepaid ledger sums to every balance after the server is killed (SIGKILL) in the middle
 * of a load of uses at the counter, as `npm start` runs it, on the embedded database (PGlite pass) or PostgreSQL.
 * No use is half written: each is one transaction (the entry and the balance its trigger moves).
 */
const url = inject("testDatabaseUrl");
const APP_URL = "http://fidele.test";
const servers: ServerProcess[] = [];
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await scratch?.drop();
});

describe("kill -9 in the middle of a load of uses", () => {
  it(
    "the ledger sums to every balance, and the server serves again after",
    async () => {
      const secret = randomBytes(32).toString("hex");
      let env: Record<string, string>;
      if (url) {
        scratch = await createScratchDatabase(url, "prepaidkill");
        env = { DATABASE_URL: scratch.url, SECRET: secret, APP_URL };
      } else {
        env = { DATA_DIR: await migratedDataDir(), SECRET: secret, APP_URL };
      }
      const open = () =>
        createDeps(parseEnv({ ...env, SEED_DEMO: "0", LOG_LEVEL: "warn" }), { logger: createLogger("warn") });

      // Before: a shop, a staff member, 20 customers each holding a 10-unit bundle and a 30 € gift card.
      let deps = await open();
      const owner = await createUser(deps, { withoutPassword: true });
      const shop = await createShop(deps, { ownerId: owner.id });
      const staff = await createUser(deps, { withoutPassword: true });
      await addStaff(deps, shop.id, staff.id);
      const [carnet, gift] = await deps.db
        .insert(prepaidProducts)
        .values([
          { shopId: shop.id, kind: "units", title: "Carnet de 10", quantity: 10, priceCents: 9000, validityMonths: 12 },
          {
            shopId: shop.id,
            kind: "euros",
            title: "Carte cadeau",
            quantity: 3000,
            priceCents: 3000,
            validityMonths: 12,
          },
        ])
        .returning();
      const codes: { code: string; amount: number }[] = [];
      for (let i = 0; i < 20; i++) {
        const shopper = await createUser(deps, { withoutPassword: true });
        for (const product of [carnet!, gift!]) {
          const sold = await callJson<{ holdingId: string }>(
            deps.database,
            "sell",
            "select fidele_prepaid_sell($1, $2, $3, $4, $5, $6, $7) as r",
            [shop.id, product.id, staff.id, shopper.id, null, "cash", randomUUID()],
          );
          const [h] = await deps.db.select().from(prepaidHoldings).where(eq(prepaidHoldings.id, sold.holdingId));
          codes.push({ code: h!.code, amount: product.kind === "units" ? 1 : 150 });
        }
      }
      const session = await (await deps.auth.$context).internalAdapter.createSession(staff.id);
      const cookie = `fidele.session_token=${encodeURIComponent(`${session.token}.${createHmac("sha256", secret).update(session.token).digest("base64")}`)}`;
      await deps.database.close();

      const server = await spawnServer(env);
      servers.push(server);
      await waitHealthy(server);
      const use = (target: { code: string; amount: number }) =>
        fetch(`${server.url}/api/backoffice/shops/${shop.id}/prepaid/uses`, {
          method: "POST",
          headers: { cookie, origin: APP_URL, "content-type": "application/json" },
          body: JSON.stringify({ ...target, idempotencyKey: randomUUID() }),
        }).then(
          (r) => r.status,
          () => 0, // the connection died with the server
        );

      // 8 clients use units and euros as fast as they can; the server is killed after 60 answers, mid-flight.
      let answered = 0;
      let killed = false;
      const statuses: number[] = [];
      const client = async (c: number) => {
        for (let n = 0; !killed; n++) {
          const status = await use(codes[(c * 7 + n) % codes.length]!);
          statuses.push(status);
          if (status !== 0 && ++answered === 60 && !killed) {
            killed = true;
            server.child.kill("SIGKILL");
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
      await server.exited;
      expect(statuses.filter((s) => s === 201).length, `statuses: ${statuses.join(",")}`).toBeGreaterThanOrEqual(50);

      // After: every balance is its ledger's sum, none below zero, and what was used is what the ledger says.
      deps = await open();
      expect(await findPrepaidMismatches(deps.db, shop.id)).toEqual([]);
      const holdings = await deps.db.select().from(prepaidHoldings).where(eq(prepaidHoldings.shopId, shop.id));
      const uses = await deps.db.select().from(prepaidEntries).where(eq(prepaidEntries.shopId, shop.id));
      const used = uses.filter((e) => e.kind === "use").reduce((sum, e) => sum - e.delta, 0);
      const initial = 20 * (10 + 3000);
      expect(holdings.reduce((sum, h) => sum + h.balance, 0)).toBe(initial - used);
      expect(used).toBeGreaterThanOrEqual(50);
      await deps.database.close();

      // The server starts again on the same data and serves a use.
      const again = await spawnServer(env);
      servers.push(again);
      await waitHealthy(again);
      const res = await fetch(`${again.url}/api/backoffice/shops/${shop.id}/prepaid/uses`, {
        method: "POST",
        headers: { cookie, origin: APP_URL, "content-type": "application/json" },
        body: JSON.stringify({ ...codes[0]!, idempotencyKey: randomUUID() }),
      });
      expect(res.status).toBe(201);
      expect(await again.stop()).toBe(0);
    },
    LONG_TEST,
  );
});
