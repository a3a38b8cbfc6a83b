import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward, grantPoints } from "../../src/server/db/factories.ts";
import { apiKeys, ledgerEntries } from "../../src/server/db/schema/index.ts";
import type { OpenApiDocument } from "../../src/server/lib/openapi.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 29, item 3: scoped API keys per shop and the till endpoints (acceptance rows 1-5 of « API key »). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Owner = Awaited<ReturnType<typeof shopWithOwner>>["owner"];

async function amountShop(name = "Épicerie Lune") {
  const { shop, owner } = await shopWithOwner(t, { name, rules: { mode: "points", pointsPerVisit: 10 } });
  const settings = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/card`)).json()).card;
  const { summary: _s, shop: _shop, adjustmentCap: _c, rewardsOffered: _r, hasReceiptKey: _k, ...rules } = settings;
  await owner.client.request(`/api/backoffice/shops/${shop.id}/card`, {
    method: "PUT",
    json: { ...rules, earnBy: "amount" },
  });
  return { shop, owner };
}

async function newApiKey(
  owner: Owner,
  shopId: string,
  scopes = ["customers:read", "visits:write", "rewards:read", "rewards:redeem"],
) {
  const res = await owner.client.request(`/api/backoffice/shops/${shopId}/api-keys`, {
    json: { name: "Caisse du comptoir", scopes },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { key: { id: string; prefix: string }; secret: string };
}

/** A till, server to server: no cookie, no Origin, a bearer key. */
function till(secret: string) {
  return (path: string, init: { json?: unknown; key?: string | null } = {}) =>
    tillRequest(path, {
      method: init.json === undefined ? "GET" : "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        ...(init.json === undefined ? {} : { "content-type": "application/json" }),
        ...(init.key === null ? {} : { "idempotency-key": init.key ?? randomUUID() }),
      },
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
    });
}

const tillRequest = async (path: string, init: RequestInit = {}) =>
  t.app.request(new URL(path, "http://fidele.test").toString(), init, {
    incoming: { socket: { remoteAddress: "198.51.100.7", remotePort: 40000, remoteFamily: "IPv4" } },
  });

async function customerCode() {
  const customer = await signedIn(t);
  const { personalCode } = await (await customer.client.request("/api/cards/personal-code")).json();
  return { customer, code: personalCode.display as string };
}

describe("API keys", () => {
  it("the owner creates a key (shown once, stored hashed), lists it with its last use, and revokes it", async () => {
    const { shop, owner } = await amountShop();
    const { key, secret } = await newApiKey(owner, shop.id);
    expect(secret).toMatch(/^fid_[A-Za-z0-9_-]{43}$/);
    expect(key.prefix).toBe(secret.slice(0, 12));
    const [stored] = await t.deps.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(JSON.stringify(stored)).not.toContain(secret);
    let list = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/api-keys`)).json()).keys;
    expect(list).toEqual([expect.objectContaining({ id: key.id, lastUsedAt: null, revokedAt: null })]);
    expect(JSON.stringify(list)).not.toContain(secret);

    const call = till(secret);
    expect((await call("/api/till/rewards")).status).toBe(200);
    list = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/api-keys`)).json()).keys;
    expect(list[0].lastUsedAt).not.toBeNull();

    const revoke = await owner.client.request(`/api/backoffice/shops/${shop.id}/api-keys/${key.id}/revoke`, {
      method: "POST",
    });
    expect(revoke.status).toBe(200);
    const refused = await call("/api/till/rewards");
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toBe("Clé d'API inconnue ou révoquée.");
  });

  it("staff cannot create keys; a key needs its scope", async () => {
    const { shop, owner } = await amountShop();
    const staff = await signedIn(t);
    await t.deps.db.execute(
      `insert into member (id, organization_id, user_id, role, created_at) values ('${randomUUID()}', '${shop.id}', '${staff.user.id}', 'member', now())` as never,
    );
    const res = await staff.client.request(`/api/backoffice/shops/${shop.id}/api-keys`, {
      json: { name: "Ma clé", scopes: ["visits:write"] },
    });
    expect(res.status).toBe(403);
    const { secret } = await newApiKey(owner, shop.id, ["rewards:read"]);
    const { code } = await customerCode();
    const credit = await till(secret)("/api/till/credits", { json: { customerCode: code, amountCents: 1000 } });
    expect(credit.status).toBe(403);
  });
});

describe("the till API", () => {
  it("an API key credits an amount; the same idempotency key twice credits once", async () => {
    const { shop, owner } = await amountShop();
    const { secret } = await newApiKey(owner, shop.id);
    const { code } = await customerCode();
    const call = till(secret);
    const found = await call(`/api/till/customers/${encodeURIComponent(code)}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ customer: { firstName: "Camille" }, card: null });

    const key = randomUUID();
    const first = await call("/api/till/credits", { json: { customerCode: code, amountCents: 2390 }, key });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toMatchObject({ outcome: "accepted", delta: 23, amountCents: 2390, card: { balance: 23 } });
    const again = await call("/api/till/credits", { json: { customerCode: code, amountCents: 2390 }, key });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(body);
    // Concurrent retries of one key: still one credit.
    const key2 = randomUUID();
    const burst = await Promise.all(
      Array.from({ length: 10 }, () =>
        call("/api/till/credits", { json: { customerCode: code, amountCents: 500 }, key: key2 }),
      ),
    );
    expect(burst.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    const ledger = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.shopId, shop.id));
    expect(ledger.map((e) => e.delta)).toEqual([23]); // the burst met the cooldown: recorded, not credited
    // The same key with another request is refused; a write without a key too.
    const reused = await call("/api/till/credits", { json: { customerCode: code, amountCents: 100 }, key });
    expect(reused.status).toBe(400);
    const without = await call("/api/till/credits", { json: { customerCode: code, amountCents: 100 }, key: null });
    expect(without.status).toBe(400);
    expect((await without.json()).message).toContain("Idempotency-Key");
    const scans = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/scans`)).json();
    expect(scans.scans[0]).toMatchObject({ outcome: "cooldown" });
  });

  it("a key of shop A cannot touch shop B: its customers' cards, rewards and redemptions are B's alone", async () => {
    const a = await amountShop("Boutique A");
    const b = await amountShop("Boutique B");
    const keyA = await newApiKey(a.owner, a.shop.id);
    const keyB = await newApiKey(b.owner, b.shop.id);
    const { customer, code } = await customerCode();
    await grantPoints(t.deps, { shopId: b.shop.id, userId: customer.user.id, points: 500 });
    const rewardB = await createReward(t.deps, { shopId: b.shop.id, title: "Tarte offerte", cost: 100 });

    // A's key sees A's card of this customer (none), never B's.
    expect(await (await till(keyA.secret)(`/api/till/customers/${code}`)).json()).toMatchObject({ card: null });
    const rewardsA = await (await till(keyA.secret)("/api/till/rewards")).json();
    expect(rewardsA.rewards).toEqual([]);
    const stolen = await till(keyA.secret)("/api/till/redemptions", {
      json: { customerCode: code, rewardId: rewardB.id },
    });
    expect(stolen.status).toBe(404);
    // A's credit lands on A's card only.
    await till(keyA.secret)("/api/till/credits", { json: { customerCode: code, amountCents: 1000 } });
    const seenByB = await (await till(keyB.secret)(`/api/till/customers/${code}`)).json();
    expect(seenByB.card.balance).toBe(500);
    // B's own key redeems B's reward, validated at once.
    const redeemed = await till(keyB.secret)("/api/till/redemptions", {
      json: { customerCode: code, rewardId: rewardB.id },
    });
    expect(redeemed.status).toBe(201);
    expect(await redeemed.json()).toMatchObject({
      redemption: { title: "Tarte offerte", status: "validated" },
      card: { balance: 400 },
    });
  });

  it("a request without a key, or with a made-up one, is a 401 in French", async () => {
    const res = await tillRequest("/api/till/rewards");
    expect(res.status).toBe(401);
    const made = await till(`fid_${"x".repeat(43)}`)("/api/till/rewards");
    expect(made.status).toBe(401);
  });

  it("the OpenAPI document lists the till endpoints with their security scheme and examples", async () => {
    const doc = (await (await t.request("/api/openapi.json")).json()) as OpenApiDocument & {
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
    };
    expect(doc.components.securitySchemes.tillKey).toMatchObject({ type: "http", scheme: "bearer" });
    const ops = [
      ["get", "/api/till/customers/{code}"],
      ["post", "/api/till/credits"],
      ["get", "/api/till/rewards"],
      ["post", "/api/till/redemptions"],
    ] as const;
    for (const [method, path] of ops) {
      const op = doc.paths[path]?.[method] as {
        security?: unknown;
        responses?: Record<string, { content?: Record<string, { example?: unknown }> }>;
      };
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.security).toEqual([{ tillKey: [] }]);
      const ok = Object.entries(op.responses ?? {}).find(([s]) => s.startsWith("2"))?.[1];
      expect(ok?.content?.["application/json"]?.example).toBeDefined();
    }
    const credits = doc.paths["/api/till/credits"]?.post as { parameters?: { name: string; in: string }[] };
    expect(credits.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "Idempotency-Key", in: "header" })]),
    );
  });
});
