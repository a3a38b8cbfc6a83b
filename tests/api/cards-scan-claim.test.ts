import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CLAIM_TTL_SECONDS, signScanClaim, timeStep } from "../../src/domain/loyalty/scan-code.ts";
import { cards, scanClaims, scans, user } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, codeKeyOf, newKey, type ScanBody, shopWithOwner, signedIn, tokenFor } from "./shops-helpers.ts";

/**
 * ADR 0012: a counter code opened signed out gets a signed claim, so the visit still counts after a sign-up
 * whose e-mail confirmation takes longer than the code's 60 s — once, for one account, under the usual rules.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const MINUTE = 60_000;

/** Moves the app's clock (Date only: timers, the database and its now() keep running). */
function clockAt(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

/** A signed-out phone opens the counter code shown now and asks for a claim. */
async function openSignedOut(shopId: string) {
  const phone = t.client();
  const { scanUid, token } = await tokenFor(t.deps.db, shopId);
  const res = await phone.request("/api/cards/scan-claims", { json: { scanUid, token } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { claim: string | null; expiresAt: string | null };
  return { phone, scanUid, token, ...body };
}

/** Sign-up, then the confirmation link (which signs the new account in): what the e-mail detour does. */
async function signUpAndConfirm(phone: Client) {
  const email = `nouveau-${randomUUID().slice(0, 8)}@test.fidele.local`;
  const res = await phone.request("/api/accounts/sign-up", { json: { email, password: "un-mot-de-passe-solide" } });
  expect(await res.json()).toEqual({ status: "check-email" });
  const link = /https?:\/\/\S+verify-email\S+/.exec(t.lastMail(email, "confirmation").text)?.[0];
  expect(link).toBeTruthy();
  const confirmed = await phone.request(new URL(link!).pathname + new URL(link!).search, { redirect: "manual" });
  expect(confirmed.status).toBe(302);
  expect(phone.jar.has("fidele.session_token")).toBe(true);
  const [account] = await t.deps.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  return account!.id;
}

async function postScan(client: Client, json: Record<string, unknown>) {
  const res = await client.request("/api/cards/scan", { json });
  expect(res.status).toBe(200);
  return { res, body: (await res.json()) as ScanBody };
}

describe("POST /api/cards/scan-claims", () => {
  it("gives a claim for a valid code, valid 30 minutes; none for an expired or forged one", async () => {
    const { shop } = await shopWithOwner(t);
    // The claim's life starts while the request is served: between these two readings of the clock.
    const before = Date.now();
    const opened = await openSignedOut(shop.id);
    const after = Date.now();
    expect(opened.claim).toMatch(/^[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16}$/);
    const expiresAt = Date.parse(opened.expiresAt!);
    // Whole seconds may be dropped on the way (a second of slack below).
    expect(expiresAt).toBeGreaterThanOrEqual(before + CLAIM_TTL_SECONDS * 1000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(after + CLAIM_TTL_SECONDS * 1000);

    const stale = await tokenFor(t.deps.db, shop.id, Date.now() - 61_000);
    const forged = `${timeStep(Date.now()).toString(36)}.AAAAAAAAAAAAAAAA`;
    for (const json of [stale, { scanUid: stale.scanUid, token: forged }, { scanUid: "Inconnue12345", token: forged }, { scanUid: stale.scanUid, token: "pas-un-code" }]) {
      const res = await t.client().request("/api/cards/scan-claims", { json });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ claim: null, expiresAt: null });
    }
  });

  it("answers bad input with a French 400, never a 500", async () => {
    for (const json of [{}, { scanUid: "x" }, { scanUid: "Abcdefgh1234" }, { scanUid: "Abcdefgh1234", token: "x".repeat(65) }, []]) {
      const res = await t.client().request("/api/cards/scan-claims", { json });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.code).toBe("VALIDATION");
      expect(body.message).toMatch(/[a-zé]/);
    }
  });

  it("is limited per client address, in French", async () => {
    const { shop } = await shopWithOwner(t);
    const { scanUid, token } = await tokenFor(t.deps.db, shop.id);
    const phone = t.client();
    for (let i = 0; i < 30; i++) expect((await phone.request("/api/cards/scan-claims", { json: { scanUid, token } })).status).toBe(200);
    const over = await phone.request("/api/cards/scan-claims", { json: { scanUid, token } });
    expect(over.status).toBe(429);
    expect((await over.json()).message).toMatch(/^Trop de tentatives\. Réessayez dans \d+ (minutes?|secondes?)\.$/);
  });
});

describe("a scan with a claim", () => {
  it("credits a brand-new shopper's first visit 10 minutes after the code was opened, once", async () => {
    const { shop } = await shopWithOwner(t, { name: "Boulangerie Lenoir" });
    const opened = await openSignedOut(shop.id);
    const attempt = newKey();

    clockAt(Date.now() + 10 * MINUTE);
    const userId = await signUpAndConfirm(opened.phone);
    // Without the claim, the code is expired by now.
    const bare = await postScan(opened.phone, { scanUid: opened.scanUid, token: opened.token, idempotencyKey: newKey() });
    expect(bare.body.outcome).toBe("stale_code");

    const first = await postScan(opened.phone, { scanUid: opened.scanUid, token: opened.token, claim: opened.claim, idempotencyKey: attempt });
    expect(first.body).toMatchObject({ outcome: "accepted", accepted: true, delta: 1 });
    expect(first.body.message).toContain("Boulangerie Lenoir");
    expect(first.body.card?.balance).toBe(1);

    // A retry of the same attempt (same key) gets the same answer and adds nothing.
    const retry = await postScan(opened.phone, { scanUid: opened.scanUid, token: opened.token, claim: opened.claim, idempotencyKey: attempt });
    expect(retry.res.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(first.body);
    const [card] = await t.deps.db.select({ balance: cards.balance }).from(cards).where(and(eq(cards.shopId, shop.id), eq(cards.userId, userId)));
    expect(card?.balance).toBe(1);
    const spent = await t.deps.db.select().from(scanClaims).where(eq(scanClaims.userId, userId));
    expect(spent).toMatchObject([{ shopId: shop.id, idempotencyKey: attempt }]);
  });

  it("a claim credits one account once: reused by another account, or by the same one for a new attempt, the code is expired", async () => {
    const { shop } = await shopWithOwner(t, { rules: { cooldownMinutes: 0 } });
    const opened = await openSignedOut(shop.id);
    clockAt(Date.now() + 5 * MINUTE);
    const first = await signedIn(t);
    const scanWith = (client: Client, idempotencyKey = newKey()) =>
      postScan(client, { scanUid: opened.scanUid, token: opened.token, claim: opened.claim, idempotencyKey });
    expect((await scanWith(first.client)).body.outcome).toBe("accepted");

    const second = await signedIn(t);
    const replayed = await scanWith(second.client);
    expect(replayed.body).toMatchObject({ outcome: "stale_code", accepted: false, delta: 0 });
    expect(replayed.body.message).toBe("Ce code a expiré : il change toutes les 30 secondes. Scannez le code affiché en ce moment au comptoir.");
    // No cooldown at this shop, yet the same claim does not count twice.
    expect((await scanWith(first.client)).body.outcome).toBe("stale_code");

    const outcomes = await t.deps.db.select({ userId: scans.userId, outcome: scans.outcome }).from(scans).where(eq(scans.shopId, shop.id));
    expect(outcomes.filter((s) => s.outcome === "accepted")).toEqual([{ userId: first.user.id, outcome: "accepted" }]);
  });

  it("still obeys the cooldown", async () => {
    const { shop } = await shopWithOwner(t);
    const { client } = await signedIn(t);
    const { scanUid, token } = await tokenFor(t.deps.db, shop.id);
    expect((await postScan(client, { scanUid, token, idempotencyKey: newKey() })).body.outcome).toBe("accepted");
    const opened = await openSignedOut(shop.id);
    clockAt(Date.now() + 2 * MINUTE);
    const late = await postScan(client, { scanUid, token: opened.token, claim: opened.claim, idempotencyKey: newKey() });
    expect(late.body.outcome).toBe("cooldown");
  });

  it("refuses, in French, a forged, expired or foreign claim as an expired code", async () => {
    const { shop } = await shopWithOwner(t);
    const { shop: otherShop } = await shopWithOwner(t);
    const opened = await openSignedOut(shop.id);
    const elsewhere = await openSignedOut(otherShop.id);
    const { client } = await signedIn(t);
    const [step, issuedAt, nonce, mac] = opened.claim!.split(".");
    const { key } = await codeKeyOf(t.deps.db, otherShop.id);
    const claims = {
      tampered: [step, issuedAt, `${nonce}A`, mac].join("."),
      backdated: [step, (Number.parseInt(issuedAt!, 36) - 40).toString(36), nonce, mac].join("."),
      otherShop: elsewhere.claim,
      otherShopKey: await signScanClaim(key, opened.scanUid, Number.parseInt(step!, 36), Date.now(), "une-valeur-au-hasard"),
      garbage: "%%%.".repeat(40),
    };
    clockAt(Date.now() + 3 * MINUTE);
    for (const [name, claim] of Object.entries(claims)) {
      const res = await client.request("/api/cards/scan", { json: { scanUid: opened.scanUid, token: opened.token, claim, idempotencyKey: newKey() } });
      expect(res.status, name).toBe(200);
      const body = (await res.json()) as ScanBody;
      expect(body.outcome, name).toBe("stale_code");
      expect(body.message, name).toContain("Ce code a expiré");
    }
    // Past its 30 minutes, the genuine claim no longer holds either.
    clockAt(Date.now() + CLAIM_TTL_SECONDS * 1000);
    const expired = await postScan(client, { scanUid: opened.scanUid, token: opened.token, claim: opened.claim, idempotencyKey: newKey() });
    expect(expired.body.outcome).toBe("stale_code");
    // Too long for the schema: a French 400.
    const long = await client.request("/api/cards/scan", { json: { scanUid: opened.scanUid, token: opened.token, claim: "a".repeat(201), idempotencyKey: newKey() } });
    expect(long.status).toBe(400);
    expect((await long.json()).code).toBe("VALIDATION");
    expect(await t.deps.db.select().from(scanClaims).where(eq(scanClaims.shopId, shop.id))).toEqual([]);
  });
});
