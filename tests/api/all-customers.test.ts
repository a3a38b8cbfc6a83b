import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createShop } from "../../src/server/db/factories.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 16, item 5: /admin/liste-totale-clients — customers of every shop one owns; the platform admin's all. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rules = { mode: "points" as const, pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 };

type Listed = { total: number; customers: { email: string; shopName: string; visits: number; userId: string }[] };

describe("/api/backoffice/customers", () => {
  it("an owner of two shops sees the customers of both, never another owner's; search, sort and CSV", async () => {
    const a = await shopWithOwner(t, { rules, name: "Boulangerie Alpha" });
    const second = await createShop(t.deps, { ownerId: a.owner.user.id, rules, name: "Épicerie Gamma" });
    const other = await shopWithOwner(t, { rules, name: "Fromagerie Bêta" });
    const ana = await signedIn(t, { firstName: "Ana", lastName: "Zéphyr" });
    const bob = await signedIn(t, { firstName: "Bob", lastName: "Arnaud" });
    await scan(ana.client, t.deps.db, a.shop.id);
    await scan(ana.client, t.deps.db, a.shop.id);
    await scan(bob.client, t.deps.db, second.id);
    await scan(bob.client, t.deps.db, other.shop.id);

    const res = await a.owner.client.request("/api/backoffice/customers?sort=name");
    expect(res.status).toBe(200);
    const list = (await res.json()) as Listed;
    expect(list.total).toBe(2);
    expect(list.customers.map((c) => `${c.email}@${c.shopName}`)).toEqual([
      `${bob.user.email}@Épicerie Gamma`,
      `${ana.user.email}@Boulangerie Alpha`,
    ]);
    const byVisits = (await (await a.owner.client.request("/api/backoffice/customers?sort=visits")).json()) as Listed;
    expect(byVisits.customers[0]?.email).toBe(ana.user.email);
    const searched = (await (await a.owner.client.request("/api/backoffice/customers?q=zéph")).json()) as Listed;
    expect(searched.customers.map((c) => c.email)).toEqual([ana.user.email]);

    const csv = await a.owner.client.request("/api/backoffice/customers/export.csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    expect(text).toContain("Prénom;Nom;E-mail;Boutique");
    expect(text).toContain(ana.user.email);
    expect(text).not.toContain("Fromagerie Bêta");
  });

  it("the platform admin sees every shop's customers", async () => {
    const other = await shopWithOwner(t, { rules, name: "Caviste Delta" });
    const eve = await signedIn(t);
    await scan(eve.client, t.deps.db, other.shop.id);
    const admin = await signedIn(t, { role: "admin" });
    const list = (await (
      await admin.client.request(`/api/backoffice/customers?q=${encodeURIComponent(eve.user.email)}`)
    ).json()) as Listed;
    expect(list.customers.map((c) => c.shopName)).toEqual(["Caviste Delta"]);
  });

  it("a shopper is refused in French; signed out is 401; an unknown sort is 400", async () => {
    const shopper = await signedIn(t);
    const res = await shopper.client.request("/api/backoffice/customers");
    expect(res.status).toBe(403);
    expect((await res.json()).message).toMatch(/propriétaires de boutique/);
    expect((await t.client().request("/api/backoffice/customers")).status).toBe(401);
    expect((await shopper.client.request("/api/backoffice/customers?sort=nimporte")).status).toBe(400);
  });
});
