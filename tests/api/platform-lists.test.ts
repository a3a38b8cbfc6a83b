import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 11. The platform admin's lists cost their page: the total is counted apart and capped (LIST_COUNT_CAP,
 * « plus de 10 000 »), and the audit log's CSV is streamed batch after batch with every row (no silent cap).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("the platform admin's lists", () => {
  it("the audit log counts up to 10,000 and its CSV holds every entry, newest first", async () => {
    const { shop } = await shopWithOwner(t, { name: "Boutique très suivie" });
    const admin = await signedIn(t, { role: "admin" });
    await t.deps.db.execute(sql`
      insert into audit_log (shop_id, action, target, created_at)
      select ${shop.id}, 'points.adjust', 'cible-' || g, now() - g * interval '1 second'
      from generate_series(1, 10050) g`);

    const page = await (await admin.client.request(`/api/admin/logs?shopId=${shop.id}&limit=20`)).json();
    expect(page).toMatchObject({ total: 10_000, totalIsCapped: true });
    expect(page.entries.map((e: { target: string }) => e.target).slice(0, 3)).toEqual(["cible-1", "cible-2", "cible-3"]);
    expect(page.entries[0].shop).toEqual({ id: shop.id, name: "Boutique très suivie" });
    const few = await (await admin.client.request(`/api/admin/logs?shopId=${shop.id}&from=2000-01-01&to=2000-01-02`)).json();
    expect(few).toMatchObject({ total: 0, totalIsCapped: false });

    const res = await admin.client.request(`/api/admin/logs.csv?shopId=${shop.id}`);
    const lines = (await res.text()).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(1 + 10_050);
    const targets = lines.slice(1).map((l) => l.split(";")[4]);
    expect(targets[0]).toBe("cible-1");
    expect(targets.at(-1)).toBe("cible-10050");
    expect(new Set(targets).size).toBe(10_050);
  });

  it("the shops list takes its page first, with each shop's customers and scans of the last 30 days", async () => {
    const tag = randomUUID().slice(0, 8); // the PostgreSQL test database is shared between runs
    const { shop } = await shopWithOwner(t, { name: `Épicerie Zéphyr ${tag}` });
    const admin = await signedIn(t, { role: "admin" });
    const shoppers = await Promise.all([signedIn(t), signedIn(t)]);
    for (const s of shoppers) await scan(s.client, t.deps.db, shop.id);
    const body = await (await admin.client.request(`/api/backoffice/platform/shops?q=zephyr%20${tag}`)).json();
    expect(body).toMatchObject({ total: 1, totalIsCapped: false });
    expect(body.shops[0]).toMatchObject({ id: shop.id, customers: 2, scans30d: 2 });
  });
});
