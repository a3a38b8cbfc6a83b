import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { auditLog, cards, ledgerEntries, tillConnections } from "../../src/server/db/schema/index.ts";
import { pollZettlePurchases } from "../../src/server/modules/till/zettle-poll.service.ts";
import { startZettle, type ZettleServer } from "../fixtures/zettle-server.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { eventually } from "../setup/eventually.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 29 item 5, acceptance row « the connector test »: a sale and a refund from a local Zettle (its OAuth, Pusher
 * and Purchase APIs as documented, tests/fixtures/zettle-server.ts) move the customer's points both ways. The
 * events reach the app as Zettle's Pusher API sends them, signed; the job engine reads each purchase back.
 */
let t: TestApp;
let dropScratch: (() => Promise<void>) | undefined;
const zettles: ZettleServer[] = [];

beforeAll(async () => {
  const url = inject("testDatabaseUrl");
  let database: Database | undefined;
  if (url) {
    const scratch = await createScratchDatabase(url, "zettle");
    dropScratch = scratch.drop;
    database = await openDatabase({ url: scratch.url, poolSize: 6 });
  }
  t = await createTestApp({ jobs: true, database });
});
afterAll(async () => {
  await t?.close();
  for (const z of zettles) await z.close();
  await dropScratch?.();
});

/** A local Zettle whose pushes reach the in-process app as Zettle's would (no cookie, no Origin). */
async function zettle() {
  const z = await startZettle({
    deliver: async (url, body, headers) => {
      const target = new URL(url);
      const res = await t.app.request(
        `http://fidele.test${target.pathname}`,
        { method: "POST", headers, body },
        {
          incoming: { socket: { remoteAddress: "185.63.1.7", remotePort: 40000, remoteFamily: "IPv4" } },
        },
      );
      return { status: res.status, body: await res.text() };
    },
  });
  zettles.push(z);
  // The app reads its Zettle addresses from its settings: point them at this one (trusted as written).
  Object.assign(t.deps.env, z.env);
  return z;
}

async function amountShop() {
  const { shop, owner } = await shopWithOwner(t, {
    name: "Boulangerie Zettle",
    rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
  });
  const base = `/api/backoffice/shops/${shop.id}`;
  const settings = (await (await owner.client.request(`${base}/card`)).json()).card;
  const { summary: _s, shop: _shop, adjustmentCap: _c, rewardsOffered: _r, hasReceiptKey: _k, ...rules } = settings;
  const saved = await owner.client.request(`${base}/card`, { method: "PUT", json: { ...rules, earnBy: "amount" } });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return { shop, owner, base };
}

async function connected() {
  const z = await zettle();
  const { shop, owner, base } = await amountShop();
  const res = await owner.client.request(`${base}/till-connection/zettle`, {
    method: "PUT",
    json: { clientId: z.clientId, apiKey: z.apiKey },
  });
  expect(res.status).toBe(200);
  return { z, shop, owner, base, status: await res.json() };
}

async function customer() {
  const c = await signedIn(t);
  const { personalCode } = await (await c.client.request("/api/cards/personal-code")).json();
  return { ...c, code: personalCode.display as string };
}

const balanceOf = async (shopId: string, userId: string) =>
  (
    await t.deps.db
      .select({ balance: cards.balance, lifetime: cards.lifetime })
      .from(cards)
      .where(and(eq(cards.shopId, shopId), eq(cards.userId, userId)))
  )[0];

async function saleRow(base: string, owner: { client: { request: TestApp["request"] } }, purchaseId: string) {
  let row: { outcome: string; points: number } | undefined;
  await eventually(async () => {
    const { sales } = await (await owner.client.request(`${base}/till-connection`)).json();
    row = sales.find((s: { purchaseId: string }) => s.purchaseId === purchaseId);
    return Boolean(row);
  }).toBe(true);
  return row!;
}

describe("the Zettle connector", () => {
  it("connects with the merchant's API key: subscribed to PurchaseCreated at the shop's own address, audited, no secret shown", async () => {
    const { z, shop, status } = await connected();
    expect(status.connection).toMatchObject({
      vendor: "zettle",
      status: "active",
      organizationUuid: z.organizationUuid,
    });
    const [subscription] = [...z.subscriptions.values()];
    expect(subscription?.destination).toBe(status.connection.webhookUrl);
    expect(subscription?.destination).toMatch(/^http:\/\/fidele\.test\/api\/connectors\/zettle\/[A-Za-z0-9_-]{24}$/);
    expect(JSON.stringify(status)).not.toContain(z.apiKey);
    expect(JSON.stringify(status)).not.toContain(subscription?.signingKey);
    const audit = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.shopId, shop.id), eq(auditLog.action, "till.connect")));
    expect(audit).toHaveLength(1);
  });

  it("a sale with the customer's code credits points by amount once, however often Zettle pushes it; a refund takes them back", async () => {
    const { z, shop, owner, base } = await connected();
    const shopper = await customer();
    const sale = z.sell(2450, `Client ${shopper.code}`);
    const pushed = await z.push(sale);
    expect(pushed.map((p) => p.status)).toEqual([200]);
    expect((await saleRow(base, owner, sale)).outcome).toBe("credited");
    expect(await balanceOf(shop.id, shopper.user.id)).toEqual({ balance: 24, lifetime: 24 });

    // Zettle sends again (a retry, a replay): nothing more.
    await z.push(sale);
    await z.push(sale);
    await eventually(async () => {
      const { rows } = await t.deps.db.execute<{ n: number }>(
        `select count(*)::int as n from pgboss.job where name = 'till.purchase' and state in ('created','retry','active')` as never,
      );
      return rows[0]?.n === 0;
    }).toBe(true);
    expect(await balanceOf(shop.id, shopper.user.id)).toEqual({ balance: 24, lifetime: 24 });

    // A partial refund takes the refunded share; the rest of it the rest, never more.
    const partial = z.refund(sale, 600);
    await z.push(partial);
    expect(await saleRow(base, owner, partial)).toMatchObject({ outcome: "taken_back", points: -6 });
    const rest = z.refund(sale, 1850);
    await z.push(rest);
    expect(await saleRow(base, owner, rest)).toMatchObject({ outcome: "taken_back", points: -18 });
    expect(await balanceOf(shop.id, shopper.user.id)).toEqual({ balance: 0, lifetime: 0 });
    const ledger = await t.deps.db
      .select({ kind: ledgerEntries.kind, delta: ledgerEntries.delta, reason: ledgerEntries.reason })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.shopId, shop.id));
    expect(ledger.map((e) => e.delta).sort((a, b) => a - b)).toEqual([-18, -6, 24]);
    expect(ledger.find((e) => e.delta === -6)?.reason).toMatch(/^Remboursement en caisse \(ticket n° \d+\)$/);
  });

  it("a sale Zettle never pushed is found by the hourly pass and credited once; nothing before the connection, nothing twice", async () => {
    const { z, shop, owner, base } = await connected();
    const shopper = await customer();
    const now = Date.now();
    await t.deps.db
      .update(tillConnections)
      .set({ createdAt: new Date(now - 3 * 3600_000) })
      .where(eq(tillConnections.shopId, shop.id));
    const before = z.sell(1000, shopper.code, "EUR", new Date(now - 4 * 3600_000));
    const missed = z.sell(2450, shopper.code, "EUR", new Date(now - 30 * 60_000));
    const pushed = z.sell(1200, shopper.code, "EUR", new Date(now - 20 * 60_000));
    const recent = z.sell(500, shopper.code, "EUR", new Date(now - 60_000));
    await z.push(pushed);
    expect((await saleRow(base, owner, pushed)).outcome).toBe("credited");

    // The pass finds the one sale the shop has no outcome for: not the pushed one, not one from before the
    // connection, not one of the last minutes (the Pusher API's).
    expect(await pollZettlePurchases(t.deps)).toEqual({ shops: expect.any(Number), queued: 1 });
    expect(await saleRow(base, owner, missed)).toMatchObject({ outcome: "credited", points: 24 });
    expect(await balanceOf(shop.id, shopper.user.id)).toEqual({ balance: 36, lifetime: 36 });
    expect(z.requests.some((r) => r.startsWith("GET /purchases/v2?"))).toBe(true);
    // Again: nothing left to find.
    expect((await pollZettlePurchases(t.deps)).queued).toBe(0);
    const { sales } = await (await owner.client.request(`${base}/till-connection`)).json();
    const ids = sales.map((s: { purchaseId: string }) => s.purchaseId);
    expect(ids).not.toContain(before);
    expect(ids).not.toContain(recent);
    expect(await balanceOf(shop.id, shopper.user.id)).toEqual({ balance: 36, lifetime: 36 });
  });

  it("a refund never takes more than the card holds: points already spent stay spent", async () => {
    const { z, shop, owner, base } = await connected();
    const shopper = await customer();
    const sale = z.sell(3000, shopper.code.toLowerCase().replace("-", " "));
    await z.push(sale);
    expect((await saleRow(base, owner, sale)).outcome).toBe("credited");
    await t.deps.db.insert(ledgerEntries).values({
      cardId: (await t.deps.db.select({ id: cards.id }).from(cards).where(eq(cards.shopId, shop.id)))[0]!.id,
      shopId: shop.id,
      kind: "redemption",
      delta: -25,
      actorId: shopper.user.id,
      reason: "Récompense",
    });
    const refund = z.refund(sale, 3000);
    await z.push(refund);
    expect(await saleRow(base, owner, refund)).toMatchObject({ outcome: "taken_back", points: -5 });
    expect((await balanceOf(shop.id, shopper.user.id))?.balance).toBe(0);
  });

  it("a sale without a code, with an unknown code, a team member's, or in another currency credits nobody and says why", async () => {
    const { z, shop, owner, base } = await connected();
    const staff = await customer();
    await t.deps.db.execute(
      `insert into member (id, organization_id, user_id, role, created_at) values (gen_random_uuid()::text, '${shop.id}', '${staff.user.id}', 'member', now())` as never,
    );
    const own = z.sell(5000, staff.code);
    await z.push(own);
    expect((await saleRow(base, owner, own)).outcome).toBe("team");
    expect(await balanceOf(shop.id, staff.user.id)).toBeUndefined();
    const none = z.sell(1200);
    const unknown = z.sell(1200, "ABCD-EF23");
    const dollars = z.sell(1200, "ABCD-EF23", "USD");
    for (const p of [none, unknown, dollars]) await z.push(p);
    expect((await saleRow(base, owner, none)).outcome).toBe("no_code");
    expect((await saleRow(base, owner, unknown)).outcome).toBe("unknown_code");
    expect((await saleRow(base, owner, dollars)).outcome).toBe("currency");
    const { sales } = await (await owner.client.request(`${base}/till-connection`)).json();
    const labels = Object.fromEntries(
      sales.map((s: { purchaseId: string; outcomeLabel: string }) => [s.purchaseId, s.outcomeLabel]),
    );
    expect(labels).toEqual({
      [own]: "Client membre de l'équipe : non crédité",
      [none]: "Pas de code client dans la vente",
      [unknown]: "Code client inconnu",
      [dollars]: "Vente dans une autre devise que l'euro",
    });
  });

  it("an event not signed with the shop's key, or for another organisation, is refused and credits nothing", async () => {
    const { z, shop, owner, base } = await connected();
    const shopper = await customer();
    const sale = z.sell(2000, shopper.code);
    const forged = await z.push(sale, (event) => {
      event.payload = String(event.payload).replace('"amount":2000', '"amount":200000');
    });
    expect(forged.map((p) => p.status)).toEqual([401]);
    const otherOrg = await z.push(sale, (event) => {
      event.organizationUuid = "00000000-0000-4000-8000-000000000000";
    });
    expect(otherOrg.map((p) => p.status)).toEqual([401]);
    const [subscription] = [...z.subscriptions.values()];
    const unsigned = await t.app.request(subscription!.destination, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        organizationUuid: z.organizationUuid,
        eventName: "PurchaseCreated",
        payload: "{}",
        timestamp: "x",
      }),
    });
    expect(unsigned.status).toBe(401);
    const unknownHook = await t.app.request("http://fidele.test/api/connectors/zettle/AAAAAAAAAAAAAAAAAAAAAAAA", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ organizationUuid: z.organizationUuid, eventName: "PurchaseCreated", payload: "{}" }),
    });
    expect(unknownHook.status).toBe(404);
    const garbage = await t.app.request(subscription!.destination, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "[1,2",
    });
    expect(garbage.status).toBe(400);
    expect(await balanceOf(shop.id, shopper.user.id)).toBeUndefined();
    const { sales } = await (await owner.client.request(`${base}/till-connection`)).json();
    expect(sales).toEqual([]);
  });

  it("a key the merchant revoked: refused when connecting, and a connected shop sees « refusée »", async () => {
    const { z, owner, base } = await connected();
    const shopper = await customer();
    z.revoke();
    const sale = z.sell(1500, shopper.code);
    await z.push(sale);
    await eventually(async () => {
      const { connection } = await (await owner.client.request(`${base}/till-connection`)).json();
      return connection.status;
    }).toBe("refused");
    const again = await owner.client.request(`${base}/till-connection/zettle`, {
      method: "PUT",
      json: { clientId: z.clientId, apiKey: z.apiKey },
    });
    expect(again.status).toBe(400);
    expect((await again.json()).message).toMatch(/^Zettle refuse cette clé/);
  });

  it("only the owner connects; another shop's owner cannot see or disconnect it; disconnecting unsubscribes at Zettle", async () => {
    const { z, shop, base, owner } = await connected();
    const staff = await signedIn(t);
    await t.deps.db.execute(
      `insert into member (id, organization_id, user_id, role, created_at) values (gen_random_uuid()::text, '${shop.id}', '${staff.user.id}', 'member', now())` as never,
    );
    expect((await staff.client.request(`${base}/till-connection`)).status).toBe(403);
    expect(
      (
        await staff.client.request(`${base}/till-connection/zettle`, {
          method: "PUT",
          json: { clientId: z.clientId, apiKey: z.apiKey },
        })
      ).status,
    ).toBe(403);
    const other = await shopWithOwner(t, { name: "Autre boutique" });
    expect((await other.owner.client.request(`${base}/till-connection`, { method: "DELETE" })).status).toBe(404);
    const bad = await owner.client.request(`${base}/till-connection/zettle`, {
      method: "PUT",
      json: { clientId: "x", apiKey: 3 },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toMatchObject({ clientId: expect.stringMatching(/UUID/) });

    const gone = await owner.client.request(`${base}/till-connection`, { method: "DELETE" });
    expect(gone.status).toBe(200);
    expect((await gone.json()).connection).toBeNull();
    expect(z.subscriptions.size).toBe(0);
    expect(await t.deps.db.select().from(tillConnections).where(eq(tillConnections.shopId, shop.id))).toEqual([]);
  });
});
