import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REWARDS_PER_SHOP_MAX } from "../../src/domain/loyalty/rewards.ts";
import { addStaff, createReward, grantPoints } from "../../src/server/db/factories.ts";
import { cards, member } from "../../src/server/db/schema/index.ts";
import { STREAMS_PER_USER } from "../../src/server/modules/rewards/rewards.routes.ts";
import { MAX_OWNED_SHOPS } from "../../src/server/modules/shops/shops.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, newKey, scan, shopWithOwner, signedIn, tokenFor } from "./shops-helpers.ts";
import { sleep } from "../setup/timing.ts";

/**
 * Issue 8, insiders and bounds: rows 1, 2, 5, 10 and 11 of the attack report, and "a staff member cannot raise
 * their own balance by any route".
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function balanceOf(cardId: string) {
  const [row] = await t.deps.db.select({ balance: cards.balance }).from(cards).where(eq(cards.id, cardId));
  return row?.balance ?? 0;
}

async function cardsOf(userId: string, shopId: string) {
  return (
    await t.deps.db.select({ id: cards.id, shopId: cards.shopId }).from(cards).where(eq(cards.userId, userId))
  ).filter((c) => c.shopId === shopId);
}

async function personalCodeOf(client: Client) {
  const res = await client.request("/api/cards/personal-code");
  expect(res.status).toBe(200);
  return ((await res.json()) as { personalCode: { code: string; display: string; qr: string } }).personalCode;
}

const post = (client: Client, path: string, json: unknown = {}) => client.request(path, { json });

type Role = "member" | "admin" | "owner";

/** A shop whose staff member of `role` holds a card there with `points`, and a reward they can afford. */
async function staffWithCard(role: Role, points = 30) {
  const { shop, owner } = await shopWithOwner(t, {
    rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
  });
  let staff = owner;
  if (role !== "owner") {
    staff = await signedIn(t, { firstName: "Sam", lastName: "Comptoir" });
    await addStaff(t.deps, shop.id, staff.user.id, role);
  }
  const { cardId } = await grantPoints(t.deps, { shopId: shop.id, userId: staff.user.id, points });
  const reward = await createReward(t.deps, { shopId: shop.id, title: "Café offert", cost: 10 });
  return { shop, owner, staff, cardId, reward };
}

describe("row 1 — nobody profits from their own power", () => {
  it("row 1: a member adjusting their own card (+10 000) is refused 403 in French; the balance stays", async () => {
    const { shop, staff, cardId } = await staffWithCard("member", 1);
    const res = await post(staff.client, `/api/backoffice/shops/${shop.id}/adjust`, {
      cardId,
      delta: 10_000,
      reason: "Geste commercial",
      idempotencyKey: newKey(),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toMatch(/propre carte/);
    expect(await balanceOf(cardId)).toBe(1);
  });

  /*
   * Every route that can move points, found by grepping the routers for the services that write the ledger
   * (performScan / fidele_scan, adjustCard, fidele_redeem, fidele_redemption_close) and checked against the app's
   * own route list in the next test:
   *   POST /api/cards/scan                                  a visit (the counter code they display themselves)
   *   POST /api/backoffice/shops/:shopId/credit             a visit typed at the counter (by e-mail or personal code)
   *   POST /api/backoffice/shops/:shopId/adjust             a correction
   *   POST /api/backoffice/shops/:shopId/redemptions/:id/validate   hand a reward over
   *   POST /api/backoffice/shops/:shopId/redemptions/:id/refuse     refuse one (gives the points back)
   *   POST /api/rewards/:slug/redeem, POST /api/rewards/gifts       spend points / claim a free gift (never raise)
   *   POST /api/redemptions/:id/cancel                      gives back exactly what that redemption took
   */
  for (const role of ["member", "admin", "owner"] as const) {
    it(`a staff member (${role}) cannot raise their own balance by any route that changes points`, async () => {
      const { shop, staff, cardId, reward } = await staffWithCard(role, 30);
      const base = `/api/backoffice/shops/${shop.id}`;

      // A visit: their own scan of the counter code, typed by e-mail, typed by personal code.
      const { scanUid, token } = await tokenFor(t.deps.db, shop.id);
      const selfScan = await post(staff.client, "/api/cards/scan", { scanUid, token, idempotencyKey: newKey() });
      expect(selfScan.status).toBe(403);
      expect((await selfScan.json()).message).toMatch(/équipe de cette boutique/);
      const byEmail = await post(staff.client, `${base}/credit`, { email: staff.user.email, idempotencyKey: newKey() });
      expect(byEmail.status).toBe(403);
      const code = await personalCodeOf(staff.client);
      const byCode = await post(staff.client, `${base}/credit`, { code: code.display, idempotencyKey: newKey() });
      expect(byCode.status).toBe(403);

      // A correction, small or large.
      for (const delta of [1, 50, 10_000]) {
        const adjust = await post(staff.client, `${base}/adjust`, {
          cardId,
          delta,
          reason: "Oubli",
          idempotencyKey: newKey(),
        });
        expect(adjust.status).toBe(403);
        expect((await adjust.json()).message).toMatch(/propre carte/);
      }

      // A reward: they may spend their points, never hand it over to themselves or refuse it for the refund.
      const redeemed = await post(staff.client, `/api/rewards/${reward.slug}/redeem`, { idempotencyKey: newKey() });
      expect(redeemed.status).toBe(201);
      const redemptionId = (await redeemed.json()).redemption.id as string;
      expect(await balanceOf(cardId)).toBe(20);
      const validate = await post(staff.client, `${base}/redemptions/${redemptionId}/validate`);
      expect(validate.status).toBe(403);
      expect((await validate.json()).message).toMatch(/propre récompense/);
      const refuse = await post(staff.client, `${base}/redemptions/${redemptionId}/refuse`, {
        reason: "Rupture de stock",
      });
      expect(refuse.status).toBe(403);
      // Cancelling gives back exactly what was taken: never more than before.
      expect((await post(staff.client, `/api/redemptions/${redemptionId}/cancel`)).status).toBe(200);
      expect(await balanceOf(cardId)).toBe(30);

      // A gift costs nothing and raises nothing (here not even due); its hand-over is a validation, refused above.
      const gift = await post(staff.client, "/api/rewards/gifts", {
        cardId,
        source: "birthday",
        idempotencyKey: newKey(),
      });
      expect(gift.status).toBeGreaterThanOrEqual(400);

      expect(await balanceOf(cardId)).toBe(30);
    });
  }

  it("every route that writes is classified: a new one must say whether it moves points", () => {
    const MOVES_POINTS = new Set([
      "POST /api/cards/scan",
      "POST /api/backoffice/shops/:shopId/credit",
      "POST /api/backoffice/shops/:shopId/adjust",
      // A waiting correction approved by the owner or a manager: never on their own card nor their own request
      // (tests/api/corrections.test.ts).
      "POST /api/backoffice/shops/:shopId/adjustments/:adjustmentId/approve",
      "POST /api/backoffice/shops/:shopId/redemptions/:id/validate",
      "POST /api/backoffice/shops/:shopId/redemptions/:id/refuse",
      "POST /api/rewards/:slug/redeem",
      "POST /api/rewards/gifts",
      "POST /api/redemptions/:id/cancel",
      // A wheel's lot worth points credits the card at once; so does a draw's. Staff and owners of the shop
      // cannot take part in its games (tests/api/contests.test.ts), and the owner's draw picks from the
      // published sequence, never a chosen person.
      "POST /api/contests/:id/spin",
      "POST /api/backoffice/shops/:shopId/contests/:id/draw",
      // Erasing one's account (RGPD) cancels its pending redemptions through the one close path: each gives back
      // exactly what it took, to a card that then belongs to nobody (tests/api/rgpd.test.ts). Never a raise.
      "DELETE /api/accounts/me",
      // An owner deleting their shop cancels its pending redemptions the same way: each refund gives back what it
      // took (tests/api/shop-closure.test.ts).
      "DELETE /api/backoffice/shops/:shopId",
      // Issue 29: a receipt code, like a scan, credits the shopper who sends it (a shop's team earns nothing at
      // their own shop: the scan path's staff check); a till's API key credits and hands over rewards for the
      // customer whose code it sends, never a member of the shop (tests/api/till-api.test.ts).
      "POST /api/cards/receipt",
      "POST /api/till/credits",
      "POST /api/till/redemptions",
      // Issue 28: prepaid sales and uses move a balance in units or euros; a member of the shop never sells to nor
      // uses for themselves (tests/api/prepaid.test.ts). A claim code credits the person it was made for, never
      // the team member who imported or sold it (prepaid.test.ts, prepaid-import.test.ts).
      "POST /api/backoffice/shops/:shopId/prepaid/sales",
      "POST /api/backoffice/shops/:shopId/prepaid/uses",
      // A use given back or a sale taken back: by its author within 10 minutes or the owner or a manager, never
      // on one's own holding, once (tests/api/prepaid-cancel.test.ts).
      "POST /api/backoffice/shops/:shopId/prepaid/entries/:entryId/cancel",
      "POST /api/prepaid/claim",
      // A parrainage's rewards are released by the owner's decision on a held ring, or by the friend's visit; the
      // shop's team can neither sponsor nor be sponsored there (tests/api/referrals.test.ts).
      "POST /api/backoffice/shops/:shopId/referrals/:id/decision",
      // Issue 29 item 5: a Zettle sale credits, its refund takes back, the customer whose code the cashier typed;
      // signed with the shop's own key, each purchase once, never a member of the shop (tests/api/till-zettle.test.ts).
      "POST /api/connectors/zettle/:hookId",
    ]);
    // Writes that never touch a balance (settings, catalogue, team, accounts, reviews, codes).
    const NO_POINTS = [
      /^POST \/api\/auth\/\*$/,
      /^(POST|PUT) \/api\/accounts\//,
      /^(POST|PUT|DELETE) \/api\/shops(\/|$)/,
      /^POST \/api\/cards\/(scan-claims|personal-code|short-codes)$/,
      /^(POST|PUT) \/api\/contests\/(:id\/enter|featured\/:slot)$/,
      /^(POST|PUT|DELETE) \/api\/backoffice\/shops\/:shopId\/(prize-lots|contests)(\/:lotId|\/:id|\/:id\/schedule)?$/,
      /^POST \/api\/backoffice\/shops\/:shopId\/contest-winnings\/:id\/hand-over$/,
      /^(POST|PUT|DELETE) \/api\/messages(\/|$)/,
      // A shop's messages and newsletters (campaigns, preview, test send); e-mail unsubscribe and the bounce webhook.
      /^POST \/api\/backoffice\/shops\/:shopId\/(messages|newsletters)(\/|$)/,
      /^POST \/api\/email\//,
      /^(PUT|POST|DELETE) \/api\/backoffice\/shops\/:shopId\/(page|legal|hours|card|code-secret|double-points|invitations|members)/,
      /^(POST|PUT|PATCH|DELETE) \/api\/backoffice\/shops\/:shopId\/(rewards|rewards-order|reward-settings|vip-tiers)(\/|$)/,
      /^POST \/api\/backoffice\/(invitations|platform)\//,
      // Ending a session (/admin/sessions).
      /^DELETE \/api\/admin\/sessions\/:sessionId$/,
      // The platform admin's ban, unban and sign-out-everywhere of an account.
      /^POST \/api\/admin\/users\/:userId\/(ban|unban|sign-out|resend-confirmation)$/,
      /^PUT \/api\/backoffice\/shops\/:shopId\/customers\/:userId\/note$/,
      // Refusing a waiting correction: its points never move.
      /^POST \/api\/backoffice\/shops\/:shopId\/adjustments\/:adjustmentId\/refuse$/,
      // SMS: the monthly budget, a test SMS, and the gateway's STOP webhook (a consent row).
      /^(PUT|POST) \/api\/backoffice\/shops\/:shopId\/sms\/(budget|budget-request|test|phone|phone\/confirm)$/,
      // The platform admin grants a shop's SMS budget (issue 22 row 2).
      /^PUT \/api\/backoffice\/platform\/shops\/:shopId\/sms-budget$/,
      /^POST \/api\/sms\/webhook$/,
      // Archiving a reward or a lot from /admin/{product}: redemptions and winnings keep their copies.
      /^POST \/api\/backoffice\/shops\/:shopId\/products\/:slug\/archive$/,
      // Automations (issue 27): their settings, and a win-back sent now, are messages; no automation moves points.
      /^(PUT|POST) \/api\/backoffice\/shops\/:shopId\/automations\/(:kind|win_back\/send)$/,
      // Apple Wallet's web service (issue 26): a device registers for a pass's updates, unregisters, logs.
      /^(POST|DELETE) \/api\/wallet\/apple\/v1\/(devices\/:deviceId\/registrations\/:passTypeId\/:serial|log)$/,
      // Issue 29: the till's receipt key, API keys and webhooks (owner only; none moves points by itself).
      /^POST \/api\/backoffice\/shops\/:shopId\/(receipt-key|api-keys|api-keys\/:keyId\/revoke)$/,
      /^(POST|DELETE) \/api\/backoffice\/shops\/:shopId\/webhooks(\/:id|\/:id\/deliveries\/:deliveryId\/resend)?$/,
      /^(PUT|DELETE) \/api\/backoffice\/shops\/:shopId\/till-connection(\/zettle)?$/,
      // Issue 29 item 6 (ADR 0054): the owner's counter tablets; a tablet's pairing, and its amount codes, which
      // credit nothing until a shopper claims one through POST /api/cards/receipt (the scan path's staff check).
      /^POST \/api\/backoffice\/shops\/:shopId\/tablets(\/:tabletId\/revoke)?$/,
      /^POST \/api\/tablet\/(pair|amount-codes)$/,
      // Issue 28: the prepaid catalogue; an import makes waiting lines that move nothing until their holder claims
      // them; the parrainage and review-request settings; a sponsor's link, a friend's acceptance (released only
      // by a visit later).
      /^(POST|PATCH) \/api\/backoffice\/shops\/:shopId\/prepaid\/products(\/:productId\/active)?$/,
      /^POST \/api\/backoffice\/shops\/:shopId\/imports(\/preview)?$/,
      /^PUT \/api\/backoffice\/shops\/:shopId\/(reviews\/settings|referrals\/program)$/,
      /^POST \/api\/referrals\/(link|invites\/:code\/accept)$/,
    ];
    const writes = new Set(
      t.app.routes
        .filter((r) => ["POST", "PUT", "PATCH", "DELETE"].includes(r.method))
        .map((r) => `${r.method} ${r.path}`),
    );
    const unclassified = [...writes].filter((w) => !MOVES_POINTS.has(w) && !NO_POINTS.some((re) => re.test(w)));
    expect(unclassified).toEqual([]);
    for (const w of MOVES_POINTS) expect(writes.has(w)).toBe(true);
  });

  it("a shop's team earns no visits there: a colleague cannot credit another staff member either", async () => {
    const { shop, staff } = await staffWithCard("member", 0);
    const colleague = await signedIn(t);
    await addStaff(t.deps, shop.id, colleague.user.id, "member");
    const code = await personalCodeOf(staff.client);
    const res = await post(colleague.client, `/api/backoffice/shops/${shop.id}/credit`, {
      code: code.code,
      idempotencyKey: newKey(),
    });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toMatch(/fait partie de l'équipe/);
    // Elsewhere, the same person is a customer like any other.
    const other = await shopWithOwner(t);
    expect((await scan(staff.client, t.deps.db, other.shop.id)).body.accepted).toBe(true);
  });

  it("a member's correction above the shop's limit waits for the owner or a manager; the owner sees author and reason", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points" } });
    const member = await signedIn(t, { firstName: "Inès", lastName: "Caisse" });
    await addStaff(t.deps, shop.id, member.user.id, "member");
    const manager = await signedIn(t, { firstName: "Marc", lastName: "Gérant" });
    await addStaff(t.deps, shop.id, manager.user.id, "admin");
    const customer = await signedIn(t);
    const { cardId } = await grantPoints(t.deps, { shopId: shop.id, userId: customer.user.id, points: 5 });
    const adjust = (client: Client, delta: number, reason = "Achat oublié") =>
      post(client, `/api/backoffice/shops/${shop.id}/adjust`, { cardId, delta, reason, idempotencyKey: newKey() });

    // The default limit is a visit's worth (10 points here, issue 22 row 17); beyond it the correction waits (202).
    expect((await adjust(member.client, 10)).status).toBe(201);
    const over = await adjust(member.client, 11);
    expect(over.status).toBe(202);
    expect((await over.json()).status).toBe("pending");
    expect((await adjust(member.client, -11)).status).toBe(202);
    expect(await balanceOf(cardId)).toBe(15);
    expect((await adjust(manager.client, 500, "Carte papier reprise")).status).toBe(201);
    expect((await adjust(owner.client, 1000, "Carte papier reprise")).status).toBe(201);
    // A reason is required.
    expect((await adjust(member.client, 1, "")).status).toBe(400);

    // The owner sets the limit in the card settings.
    const settings = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/card`)).json()).card;
    expect(settings).toMatchObject({ adjustmentLimit: null, adjustmentCap: 10, staffAdjustmentsPerDay: 3 });
    const { summary: _s, shop: _shop, adjustmentCap: _cap, ...body } = settings;
    const saved = await owner.client.request(`/api/backoffice/shops/${shop.id}/card`, {
      method: "PUT",
      json: { ...body, adjustmentLimit: 5 },
    });
    expect(saved.status).toBe(200);
    expect((await saved.json()).card).toMatchObject({ adjustmentLimit: 5, adjustmentCap: 5 });
    // A member cannot change the limit.
    const denied = await member.client.request(`/api/backoffice/shops/${shop.id}/card`, {
      method: "PUT",
      json: { ...body, adjustmentLimit: 10_000 },
    });
    expect(denied.status).toBe(403);

    // Every correction, with who made it and why, in the customer's history.
    const history = (await (
      await owner.client.request(`/api/backoffice/shops/${shop.id}/customers/${cardId}`)
    ).json()) as {
      entries: { kind: string; delta: number; reason: string | null; author: string | null }[];
    };
    const corrections = history.entries.filter((e) => e.kind.startsWith("adjustment"));
    expect(corrections.map((e) => [e.kind, e.delta, e.author, e.reason])).toEqual([
      ["adjustment", 1000, `${owner.user.firstName} ${owner.user.lastName}`, "Carte papier reprise"],
      ["adjustment", 500, "Marc Gérant", "Carte papier reprise"],
      ["adjustment_balance", 10, "Inès Caisse", "Achat oublié"],
    ]);
  });
});

describe("row 2 — no directory of people", () => {
  it("row 2: crediting by e-mail answers an unknown address and a stranger's the same way, with no name and no card", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const stranger = await signedIn(t, { firstName: "Léa", lastName: "Secret" });
    const credit = (email: string) =>
      post(owner.client, `/api/backoffice/shops/${shop.id}/credit`, { email, idempotencyKey: newKey() });

    const known = await credit(stranger.user.email);
    const unknown = await credit(`personne-${newKey()}@test.fidele.local`);
    expect(known.status).toBe(404);
    expect(unknown.status).toBe(known.status);
    const knownBody = await known.text();
    expect(await unknown.text()).toBe(knownBody);
    expect(knownBody).not.toMatch(/Léa|Secret/);
    expect(await cardsOf(stranger.user.id, shop.id)).toHaveLength(0);
    const customers = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/customers`)).text();
    expect(customers).not.toContain(stranger.user.email);

    // An existing customer of the shop can still be credited by e-mail.
    const customer = await signedIn(t, { firstName: "Noé" });
    await grantPoints(t.deps, { shopId: shop.id, userId: customer.user.id, points: 0 });
    const ok = await credit(customer.user.email);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ accepted: true, customer: { firstName: "Noé" } });
  });

  it("the personal code credits anyone who shows it (making the card), can be renewed, and its lookup is throttled", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const shopper = await signedIn(t, { firstName: "Jade" });
    const first = await personalCodeOf(shopper.client);
    expect(first.code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$/);
    expect(first.qr).toBe(`FIDELE-C:${first.code}`);
    expect((await personalCodeOf(shopper.client)).code).toBe(first.code);

    const credit = (code: string) =>
      post(owner.client, `/api/backoffice/shops/${shop.id}/credit`, { code, idempotencyKey: newKey() });
    const ok = await credit(first.qr.toLowerCase());
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ accepted: true, customer: { firstName: "Jade" } });
    expect(await cardsOf(shopper.user.id, shop.id)).toHaveLength(1);

    const renewed = await shopper.client.request("/api/cards/personal-code", { method: "POST" });
    const next = (await renewed.json()).personalCode as { code: string };
    expect(next.code).not.toBe(first.code);
    const old = await credit(first.code);
    expect(old.status).toBe(404);
    expect((await old.json()).message).toMatch(/Code client inconnu/);
    expect((await credit("ABC")).status).toBe(400);

    // Guessing: misses are counted per shop; a hit does not count.
    const guesser = await shopWithOwner(t);
    const guesses = [];
    for (let i = 0; i < 25; i++) {
      guesses.push(
        (
          await post(guesser.owner.client, `/api/backoffice/shops/${guesser.shop.id}/credit`, {
            code: "ZZZZ2222",
            idempotencyKey: newKey(),
          })
        ).status,
      );
    }
    expect(guesses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(guesses.at(-1)).toBe(429);
  });
});

describe("row 5 — the per-owner shop cap under concurrency", () => {
  it("row 5: 12 simultaneous registrations by one owner make exactly 5 shops", async () => {
    const owner = await signedIn(t);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(owner.client, "/api/shops", {
          name: `Épicerie ${i} ${newKey().slice(0, 6)}`,
          category: "epicerie",
          address: "4 rue de la Paix",
          city: "Villeurbanne",
          postalCode: "69100",
          phone: "+33 4 78 12 34 56",
        }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_OWNED_SHOPS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(12 - MAX_OWNED_SHOPS);
    const owned = await t.deps.db.select().from(member).where(eq(member.userId, owner.user.id));
    expect(owned.filter((m) => m.role === "owner")).toHaveLength(MAX_OWNED_SHOPS);
    // better-auth's own endpoint cannot make organizations around the cap.
    const around = await post(owner.client, "/api/auth/organization/create", {
      name: "Contournement",
      slug: `contournement-${newKey()}`,
    });
    expect(around.status).toBe(403);
    expect((await t.deps.db.select().from(member).where(eq(member.userId, owner.user.id))).length).toBe(
      MAX_OWNED_SHOPS,
    );
  });
});

describe("row 10 — bounded catalogues and lists", () => {
  it("row 10: a shop holds at most 100 rewards; a shop with 210 (from before the cap) never gets them back whole", async () => {
    const { shop, owner } = await shopWithOwner(t);
    for (let i = 0; i < REWARDS_PER_SHOP_MAX - 1; i++)
      await createReward(t.deps, { shopId: shop.id, title: `Récompense ${i}`, position: i });
    const create = (title: string) =>
      post(owner.client, `/api/backoffice/shops/${shop.id}/rewards`, {
        title,
        cost: 10,
        kind: "repeatable",
        isActive: true,
      });
    expect((await create("La centième")).status).toBe(201);
    const over = await create("Une de trop");
    expect(over.status).toBe(409);
    expect((await over.json()).message).toMatch(/déjà 100 récompenses/);

    // 110 more written straight to the database: 210 in all.
    for (let i = 0; i < 110; i++)
      await createReward(t.deps, { shopId: shop.id, title: `Ancienne ${i}`, position: 200 + i });
    const list = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/rewards`)).json();
    expect(list.rewards).toHaveLength(REWARDS_PER_SHOP_MAX);
    expect(list).toMatchObject({ total: 210, nextOffset: 100 });
    const last = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/rewards?offset=200`)).json();
    expect(last.rewards).toHaveLength(10);
    expect(last.nextOffset).toBeNull();
    expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/rewards?limit=500`)).status).toBe(400);
    const page = await (await t.request(`/api/shops/${shop.slug}`)).json();
    expect(page.rewards.length).toBeLessThanOrEqual(REWARDS_PER_SHOP_MAX);
    // The other lists refuse a page larger than their maximum.
    for (const path of ["customers?limit=201", "scans?limit=501", "redemptions?limit=201"]) {
      expect((await owner.client.request(`/api/backoffice/shops/${shop.id}/${path}`)).status).toBe(400);
    }
  });
});

describe("row 11 — open event streams per user", () => {
  it(`row 11: at most ${STREAMS_PER_USER} live streams per person; closing one frees its place`, async () => {
    const { shop } = await shopWithOwner(t, { rules: { mode: "points" } });
    const shopper = await signedIn(t);
    await grantPoints(t.deps, { shopId: shop.id, userId: shopper.user.id, points: 50 });
    const reward = await createReward(t.deps, { shopId: shop.id, cost: 10 });
    const redeemed = await post(shopper.client, `/api/rewards/${reward.slug}/redeem`, { idempotencyKey: newKey() });
    const id = (await redeemed.json()).redemption.id as string;
    const open = () => shopper.client.request(`/api/redemptions/${id}/events`);

    const streams = [];
    for (let i = 0; i < STREAMS_PER_USER; i++) {
      const res = await open();
      expect(res.status).toBe(200);
      streams.push(res);
    }
    const refused = await open();
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/Trop de suivis/);
    // Another person is not affected.
    const other = await signedIn(t);
    expect((await other.client.request(`/api/redemptions/${id}/events`)).status).toBe(404);

    await streams.shift()!.body!.cancel();
    await sleep(50);
    const again = await open();
    expect(again.status).toBe(200);
    streams.push(again);
    for (const s of streams) await s.body!.cancel();
  });
});
