import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { shops } from "../../src/server/db/schema/index.ts";
import { DEMO_ACCOUNTS, seedDemo } from "../../src/server/db/seed.ts";
import { findLedgerMismatches } from "../setup/ledger.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { openTestDatabase } from "../setup/test-db.ts";

// The seed runs only on an empty database: a PGlite of this file's own, not a shared one (PostgreSQL's, or the
// PGlite the files of a worker share).
describe.skipIf(Boolean(inject("testDatabaseUrl")))("demo seed", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ database: await openTestDatabase({ fresh: true }) });
    expect(await seedDemo(t.deps, createLogger("silent"))).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("creates two shops with design, hours and customers, whose ledger adds up", async () => {
    const page = await (await t.request("/api/shops/boulangerie-du-marche")).json();
    expect(page.shop).toMatchObject({
      name: "Boulangerie du Marché",
      design: { stampIcon: "croissant" },
      city: "Lyon",
    });
    expect(page.hours.weekly[1].text).toBe("7 h 00 – 13 h 30, 15 h 30 – 19 h 30");
    expect(page.doublePoints.periods).toEqual([expect.objectContaining({ label: "Mercredi gourmand", multiplier: 2 })]);
    // Rewards in the owner's order, the birthday gift kept out of the catalogue.
    expect(page.rewards.map((r: { title: string; costLabel: string }) => `${r.title} (${r.costLabel})`)).toEqual([
      "Croissant pur beurre offert (5 tampons)",
      "Baguette tradition offerte (10 tampons)",
      "Tarte du jour (15 tampons)",
      "Pain au chocolat de bienvenue (3 tampons)",
    ]);
    const list = await (await t.request("/api/shops?city=lyon")).json();
    expect(list.shops.map((s: { slug: string }) => s.slug)).toEqual(["boulangerie-du-marche", "cafe-des-canuts"]);
    const [bakery] = await t.deps.db.select().from(shops).where(eq(shops.slug, "boulangerie-du-marche"));
    expect(await findLedgerMismatches(t.deps.db)).toEqual([]);

    const owner = t.client();
    await owner.signIn(DEMO_ACCOUNTS.owner.email, DEMO_ACCOUNTS.owner.password);
    const dash = await (await owner.request(`/api/backoffice/shops/${bakery!.id}/dashboard`)).json();
    expect(dash.totals).toMatchObject({ customers: 5, scans: 18, flagged: 1 });
    const shopper = t.client();
    await shopper.signIn(DEMO_ACCOUNTS.shopper.email, DEMO_ACCOUNTS.shopper.password);
    const { cards } = await (await shopper.request("/api/cards")).json();
    expect(cards.map((c: { shop: { name: string }; balance: number }) => [c.shop.name, c.balance])).toEqual([
      ["Boulangerie du Marché", 7],
      ["Café des Canuts", 30],
    ]);
  });
});
