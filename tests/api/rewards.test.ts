import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward, grantPoints } from "../../src/server/db/factories.ts";
import { cards, ledgerEntries, profiles, redemptions, rewards } from "../../src/server/db/schema/index.ts";
import { findLedgerMismatches } from "../setup/ledger.ts";
import { expireDueRedemptions } from "../../src/server/modules/rewards/redemptions.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Redemption = {
  id: string;
  code: string;
  qr: string;
  status: string;
  statusLabel: string;
  title: string;
  cost: number;
  balance: number;
  expiresAt: string;
  refuseReason: string | null;
};

async function redeem(client: Client, slug: string, key = newKey()) {
  const res = await client.request(`/api/rewards/${slug}/redeem`, { json: { idempotencyKey: key } });
  const body = (await res.json()) as { redemption: Redemption; message?: string; code?: string };
  return { res, body };
}

async function balanceOf(cardId: string) {
  const [card] = await t.deps.db
    .select({ balance: cards.balance, lifetime: cards.lifetime })
    .from(cards)
    .where(eq(cards.id, cardId));
  return card!;
}

async function refundsOf(redemptionId: string) {
  return t.deps.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.refId, redemptionId), eq(ledgerEntries.kind, "refund")));
}

/** A shop with a reward, and a shopper holding `points` on its card. */
async function setup(
  opts: { points: number; cost?: number; stock?: number | null; mode?: "stamps" | "points" } = { points: 10 },
) {
  const { shop, owner } = await shopWithOwner(t, { rules: { mode: opts.mode ?? "points", pointsPerVisit: 10 } });
  const reward = await createReward(t.deps, {
    shopId: shop.id,
    title: "Café offert",
    cost: opts.cost ?? 10,
    stock: opts.stock ?? null,
  });
  const shopper = await signedIn(t, { firstName: "Léa" });
  const { cardId } = await grantPoints(t.deps, { shopId: shop.id, userId: shopper.user.id, points: opts.points });
  return { shop, owner, reward, shopper, cardId };
}

describe("redeeming a reward", () => {
  it("reserves the points at once, gives a 6-character code, and a retry returns the same redemption", async () => {
    const { reward, shopper, cardId } = await setup({ points: 25, cost: 10 });
    const key = newKey();
    const first = await redeem(shopper.client, reward.slug, key);
    expect(first.res.status).toBe(201);
    expect(first.body.redemption.code).toMatch(/^[A-HJKMNP-Z2-9]{6}$/);
    expect(first.body.redemption.qr).toBe(`FIDELE-R:${first.body.redemption.code}`);
    expect(first.body.redemption.status).toBe("pending");
    expect(first.body.redemption.balance).toBe(15);
    expect((await balanceOf(cardId)).balance).toBe(15);
    // The hold time defaults to 15 minutes.
    const holdMs = Date.parse(first.body.redemption.expiresAt) - Date.now();
    expect(holdMs).toBeGreaterThan(14 * 60_000);
    expect(holdMs).toBeLessThanOrEqual(15 * 60_000);

    const retry = await redeem(shopper.client, reward.slug, key);
    expect(retry.res.status).toBe(200);
    expect(retry.res.headers.get("Idempotent-Replayed")).toBe("true");
    expect(retry.body.redemption.id).toBe(first.body.redemption.id);
    expect((await balanceOf(cardId)).balance).toBe(15);

    const entries = await t.deps.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.refId, first.body.redemption.id));
    expect(entries.map((e) => [e.kind, e.delta, e.actorId])).toEqual([["redemption", -10, shopper.user.id]]);
    // Lifetime points (VIP levels) do not move when points are spent.
    expect((await balanceOf(cardId)).lifetime).toBe(25);
  });

  it("says in French what is missing, and takes nothing", async () => {
    const { reward, shopper, cardId } = await setup({ points: 7, cost: 10 });
    const { res, body } = await redeem(shopper.client, reward.slug);
    expect(res.status).toBe(409);
    expect(body.message).toBe("Il vous manque 3 points pour cette récompense.");
    expect((await balanceOf(cardId)).balance).toBe(7);

    const stamps = await setup({ points: 8, cost: 10, mode: "stamps" });
    const refused = await redeem(stamps.shopper.client, stamps.reward.slug);
    expect(refused.body.message).toBe("Il vous manque 2 tampons pour cette récompense.");
  });

  it("refuses a shopper without a card, a switched-off reward, one out of its dates, and an unknown slug", async () => {
    const { shop, reward } = await setup({ points: 50 });
    const stranger = await signedIn(t);
    expect((await redeem(stranger.client, reward.slug)).body.message).toMatch(/pas encore de carte/);

    const { shopper } = await setup({ points: 50 });
    const off = await createReward(t.deps, { shopId: shop.id, isActive: false });
    expect((await redeem(shopper.client, off.slug)).res.status).toBe(409);
    const later = await createReward(t.deps, { shopId: shop.id, validFrom: "2999-01-01" });
    const owner2 = await signedIn(t);
    await grantPoints(t.deps, { shopId: shop.id, userId: owner2.user.id, points: 100 });
    const laterAnswer = await redeem(owner2.client, later.slug);
    expect(laterAnswer.res.status).toBe(409);
    expect(laterAnswer.body.message).toBe("Cette récompense sera disponible à partir du 1 janvier 2999.");
    const unknown = await redeem(shopper.client, "pas-une-recompense");
    expect(unknown.res.status).toBe(404);
    const bad = await shopper.client.request(`/api/rewards/${reward.slug}/redeem`, { json: { idempotencyKey: "x" } });
    expect(bad.status).toBe(400);
  });

  it("a ladder reward is once per customer; a per-customer limit holds", async () => {
    const { shop, shopper } = await setup({ points: 100 });
    const ladder = await createReward(t.deps, { shopId: shop.id, kind: "ladder", cost: 10 });
    expect((await redeem(shopper.client, ladder.slug)).res.status).toBe(201);
    const again = await redeem(shopper.client, ladder.slug);
    expect(again.res.status).toBe(409);
    expect(again.body.message).toBe("Vous avez déjà obtenu cette récompense.");
    const twice = await createReward(t.deps, { shopId: shop.id, perCustomerLimit: 2, cost: 5 });
    expect((await redeem(shopper.client, twice.slug)).res.status).toBe(201);
    expect((await redeem(shopper.client, twice.slug)).res.status).toBe(201);
    expect((await redeem(shopper.client, twice.slug)).res.status).toBe(409);
  });
});

describe("races", () => {
  it("50 parallel redemptions by a shopper who can afford one: exactly one succeeds, never below zero", async () => {
    const { reward, shopper, cardId } = await setup({ points: 15, cost: 10 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(shopper.client, reward.slug)));
    const statuses = answers.map((a) => a.res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect((await balanceOf(cardId)).balance).toBe(5);
    const rows = await t.deps.db.select().from(redemptions).where(eq(redemptions.cardId, cardId));
    expect(rows).toHaveLength(1);
    expect(await findLedgerMismatches(t.deps.db)).toEqual([]);
  });

  it("a stock of 3 with 20 shoppers racing: exactly 3 succeed, and the stock ends at 0", async () => {
    const { shop } = await shopWithOwner(t, { rules: { mode: "points" } });
    const reward = await createReward(t.deps, { shopId: shop.id, cost: 10, stock: 3 });
    const shoppers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const s = await signedIn(t);
        await grantPoints(t.deps, { shopId: shop.id, userId: s.user.id, points: 10 });
        return s;
      }),
    );
    const answers = await Promise.all(shoppers.map((s) => redeem(s.client, reward.slug)));
    expect(answers.filter((a) => a.res.status === 201)).toHaveLength(3);
    const refused = answers.filter((a) => a.res.status === 409);
    expect(refused).toHaveLength(17);
    for (const r of refused) expect(r.body.message).toBe("Cette récompense est épuisée.");
    const [row] = await t.deps.db.select({ stock: rewards.stock }).from(rewards).where(eq(rewards.id, reward.id));
    expect(row!.stock).toBe(0);

    // A cancelled one gives its unit back.
    const winner = answers.findIndex((a) => a.res.status === 201);
    const cancel = await shoppers[winner]!.client.request(
      `/api/redemptions/${answers[winner]!.body.redemption.id}/cancel`,
      { method: "POST" },
    );
    expect(cancel.status).toBe(200);
    const [after] = await t.deps.db.select({ stock: rewards.stock }).from(rewards).where(eq(rewards.id, reward.id));
    expect(after!.stock).toBe(1);
  });
});

describe("validation at the counter", () => {
  it("staff find the code, see the reward and the first name, validate once; the ledger names them", async () => {
    const { shop, reward, shopper, cardId } = await setup({ points: 20, cost: 10 });
    const staff = await signedIn(t, { firstName: "Hugo", lastName: "Caisse" });
    await addStaff(t.deps, shop.id, staff.user.id);
    const { body } = await redeem(shopper.client, reward.slug);
    const code = body.redemption.code;

    // Typed loosely (lower case, a space), or read from the QR code.
    for (const typed of [`${code.slice(0, 3).toLowerCase()} ${code.slice(3)}`, `FIDELE-R:${code}`]) {
      const found = await staff.client.request(
        `/api/backoffice/shops/${shop.id}/redemptions/lookup?code=${encodeURIComponent(typed)}`,
      );
      expect(found.status).toBe(200);
      const { redemption } = (await found.json()) as {
        redemption: { id: string; title: string; customerFirstName: string; status: string };
      };
      expect(redemption).toMatchObject({
        id: body.redemption.id,
        title: "Café offert",
        customerFirstName: "Léa",
        status: "pending",
      });
    }

    const ok = await staff.client.request(
      `/api/backoffice/shops/${shop.id}/redemptions/${body.redemption.id}/validate`,
      { method: "POST" },
    );
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { redemption: { status: string; decidedByName: string } }).redemption).toMatchObject({
      status: "validated",
      decidedByName: "Hugo Caisse",
    });
    const twice = await staff.client.request(
      `/api/backoffice/shops/${shop.id}/redemptions/${body.redemption.id}/validate`,
      { method: "POST" },
    );
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { message: string }).message).toBe("Cette récompense est déjà validée.");

    const entries = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.refId, body.redemption.id));
    expect(entries.map((e) => [e.kind, e.delta, e.actorId]).sort()).toEqual(
      [
        ["redemption", -10, shopper.user.id],
        ["validation", 0, staff.user.id],
      ].sort(),
    );
    expect((await balanceOf(cardId)).balance).toBe(10);
    const mine = await shopper.client.request(`/api/redemptions/${body.redemption.id}`);
    expect(((await mine.json()) as { redemption: Redemption }).redemption.status).toBe("validated");
    // Once validated, it cannot be cancelled.
    const cancel = await shopper.client.request(`/api/redemptions/${body.redemption.id}/cancel`, { method: "POST" });
    expect(cancel.status).toBe(409);
  });

  it("a refusal says why and gives the points back exactly once", async () => {
    const { shop, owner, reward, shopper, cardId } = await setup({ points: 10, cost: 10 });
    const { body } = await redeem(shopper.client, reward.slug);
    const short = await owner.client.request(
      `/api/backoffice/shops/${shop.id}/redemptions/${body.redemption.id}/refuse`,
      { json: { reason: "x" } },
    );
    expect(short.status).toBe(400);
    const refused = await owner.client.request(
      `/api/backoffice/shops/${shop.id}/redemptions/${body.redemption.id}/refuse`,
      {
        json: { reason: "Plus de croissants ce matin" },
      },
    );
    expect(refused.status).toBe(200);
    expect((await balanceOf(cardId)).balance).toBe(10);
    const mine = (await (await shopper.client.request(`/api/redemptions/${body.redemption.id}`)).json()) as {
      redemption: Redemption;
    };
    expect(mine.redemption).toMatchObject({ status: "refused", refuseReason: "Plus de croissants ce matin" });
    expect(await refundsOf(body.redemption.id)).toHaveLength(1);
  });

  it("staff of shop B cannot see, validate or refuse a redemption of shop A; a shopper cannot validate", async () => {
    const a = await setup({ points: 20, cost: 10 });
    const b = await shopWithOwner(t);
    const staffB = await signedIn(t);
    await addStaff(t.deps, b.shop.id, staffB.user.id);
    const { body } = await redeem(a.shopper.client, a.reward.slug);
    const id = body.redemption.id;

    for (const who of [staffB.client, b.owner.client]) {
      const lookup = await who.request(
        `/api/backoffice/shops/${b.shop.id}/redemptions/lookup?code=${body.redemption.code}`,
      );
      expect(lookup.status).toBe(404);
      expect(((await lookup.json()) as { message: string }).message).toBe(
        "Aucune récompense à valider avec ce code dans votre boutique.",
      );
      const validate = await who.request(`/api/backoffice/shops/${b.shop.id}/redemptions/${id}/validate`, {
        method: "POST",
      });
      expect(validate.status).toBe(404);
      const refuse = await who.request(`/api/backoffice/shops/${b.shop.id}/redemptions/${id}/refuse`, {
        json: { reason: "Pas chez nous" },
      });
      expect(refuse.status).toBe(404);
      // Through shop A's address: not a member there, so shop A does not exist for them.
      const direct = await who.request(`/api/backoffice/shops/${a.shop.id}/redemptions/${id}/validate`, {
        method: "POST",
      });
      expect(direct.status).toBe(404);
      const list = await who.request(`/api/backoffice/shops/${a.shop.id}/redemptions`);
      expect(list.status).toBe(404);
    }
    // Staff of B cannot manage A's catalogue either.
    const edit = await staffB.client.request(`/api/backoffice/shops/${a.shop.id}/rewards/${a.reward.id}`);
    expect(edit.status).toBe(404);

    // A shopper has no back-office, and cannot read another shopper's redemption.
    const shopperTry = await a.shopper.client.request(`/api/backoffice/shops/${a.shop.id}/redemptions/${id}/validate`, {
      method: "POST",
    });
    expect(shopperTry.status).toBe(403);
    const other = await signedIn(t);
    expect((await other.client.request(`/api/redemptions/${id}`)).status).toBe(404);
    expect((await other.client.request(`/api/redemptions/${id}/cancel`, { method: "POST" })).status).toBe(404);
    // Staff (member role) validate but cannot see the owner's list.
    const staffA = await signedIn(t);
    await addStaff(t.deps, a.shop.id, staffA.user.id);
    expect((await staffA.client.request(`/api/backoffice/shops/${a.shop.id}/redemptions`)).status).toBe(403);

    const [row] = await t.deps.db
      .select({ status: redemptions.status })
      .from(redemptions)
      .where(eq(redemptions.id, id));
    expect(row!.status).toBe("pending");
  });
});

describe("expiry", () => {
  it("gives the points back exactly once, whoever runs the sweep and however often; validating late is refused", async () => {
    const { shop, owner, reward, shopper, cardId } = await setup({ points: 10, cost: 10 });
    const { body } = await redeem(shopper.client, reward.slug);
    expect((await balanceOf(cardId)).balance).toBe(0);
    await t.deps.db
      .update(redemptions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(redemptions.id, body.redemption.id));

    // Staff racing the sweepers (three "processes" at once), then more sweeps.
    const [late] = await Promise.all([
      owner.client.request(`/api/backoffice/shops/${shop.id}/redemptions/${body.redemption.id}/validate`, {
        method: "POST",
      }),
      expireDueRedemptions(t.deps.database),
      expireDueRedemptions(t.deps.database),
      expireDueRedemptions(t.deps.database),
    ]);
    expect(late!.status).toBe(409);
    expect(((await late!.json()) as { message: string }).message).toBe(
      "Trop tard : cette récompense a expiré et son solde a été rendu au client.",
    );
    await expireDueRedemptions(t.deps.database);

    expect(await refundsOf(body.redemption.id)).toHaveLength(1);
    expect((await balanceOf(cardId)).balance).toBe(10);
    const mine = (await (await shopper.client.request(`/api/redemptions/${body.redemption.id}`)).json()) as {
      redemption: Redemption;
    };
    expect(mine.redemption.status).toBe("expired");
    expect(await findLedgerMismatches(t.deps.db)).toEqual([]);
  });

  it("uses the hold time the shop sets", async () => {
    const { shop, owner, reward, shopper } = await setup({ points: 10, cost: 10 });
    const bad = await owner.client.request(`/api/backoffice/shops/${shop.id}/reward-settings`, {
      method: "PUT",
      json: { redemptionTtlMinutes: 0 },
    });
    expect(bad.status).toBe(400);
    const set = await owner.client.request(`/api/backoffice/shops/${shop.id}/reward-settings`, {
      method: "PUT",
      json: { redemptionTtlMinutes: 5 },
    });
    expect(set.status).toBe(200);
    const { body } = await redeem(shopper.client, reward.slug);
    const holdMs = Date.parse(body.redemption.expiresAt) - Date.now();
    expect(holdMs).toBeGreaterThan(4 * 60_000);
    expect(holdMs).toBeLessThanOrEqual(5 * 60_000);
  });
});

describe("the live screen (server-sent events)", () => {
  it("streams the state now, then 'validated' the moment staff validate", async () => {
    const { shop, owner, reward, shopper } = await setup({ points: 10, cost: 10 });
    const { body } = await redeem(shopper.client, reward.slug);
    const res = await shopper.client.request(`/api/redemptions/${body.redemption.id}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("content-encoding")).toBeNull();
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    /** Keep-alive comments read while waiting for an event. */
    let pings = 0;
    const nextEvent = async () => {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const chunk = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = chunk.split("\n").find((l) => l.startsWith("data:"));
          if (data) return JSON.parse(data.slice(5)) as { status: string; balance: number };
          if (chunk.startsWith(":")) pings++;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        buffer += decoder.decode(value, { stream: true });
      }
    };
    expect(await nextEvent()).toMatchObject({ status: "pending", balance: 0 });
    await owner.client.request(`/api/backoffice/shops/${shop.id}/redemptions/${body.redemption.id}/validate`, {
      method: "POST",
    });
    // The moment: the next thing on the stream is the new state, before its first keep-alive (15 s without a change).
    // Counted rather than timed, so a busy machine only makes it later.
    expect(await nextEvent()).toMatchObject({ status: "validated", balance: 0 });
    expect(pings).toBe(0);
    await reader.cancel();

    const other = await signedIn(t);
    expect((await other.client.request(`/api/redemptions/${body.redemption.id}/events`)).status).toBe(404);
  });
});

describe("the catalogue", () => {
  it("owner creates, edits, switches off, reorders and deletes rewards; editing never changes past redemptions", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points" } });
    const base = `/api/backoffice/shops/${shop.id}/rewards`;
    const invalid = await owner.client.request(base, {
      json: { title: "", cost: 0, validFrom: "2026-12-31", validUntil: "2026-01-01" },
    });
    expect(invalid.status).toBe(400);
    const { fields } = (await invalid.json()) as { fields: Record<string, string> };
    expect(fields.title).toBe("Saisissez le nom de la récompense.");
    expect(fields.cost).toBe("Coût : au moins 1.");

    const created = await owner.client.request(base, {
      json: { title: "Croissant offert", cost: 30, stock: "", description: "Le matin." },
    });
    expect(created.status).toBe(201);
    const { reward } = (await created.json()) as {
      reward: { id: string; slug: string; stock: number | null; costLabel: string };
    };
    expect(reward.stock).toBeNull();
    expect(reward.costLabel).toBe("30 points");
    const second = (await (await owner.client.request(base, { json: { title: "Baguette", cost: 10 } })).json()) as {
      reward: { id: string };
    };

    const shopper = await signedIn(t);
    await grantPoints(t.deps, { shopId: shop.id, userId: shopper.user.id, points: 40 });
    const made = await redeem(shopper.client, reward.slug);
    expect(made.res.status).toBe(201);

    const edit = await owner.client.request(`${base}/${reward.id}`, {
      method: "PUT",
      json: { title: "Croissant aux amandes", cost: 35 },
    });
    expect(edit.status).toBe(200);
    const mine = (await (await shopper.client.request(`/api/redemptions/${made.body.redemption.id}`)).json()) as {
      redemption: Redemption;
    };
    expect(mine.redemption).toMatchObject({ title: "Croissant offert", cost: 30 });

    const order = await owner.client.request(`/api/backoffice/shops/${shop.id}/rewards-order`, {
      method: "PUT",
      json: { ids: [second.reward.id, reward.id] },
    });
    expect(order.status).toBe(200);
    const partial = await owner.client.request(`/api/backoffice/shops/${shop.id}/rewards-order`, {
      method: "PUT",
      json: { ids: [reward.id] },
    });
    expect(partial.status).toBe(409);
    const list = (await (await owner.client.request(base)).json()) as { rewards: { id: string; pending: number }[] };
    expect(list.rewards.map((r) => r.id)).toEqual([second.reward.id, reward.id]);
    expect(list.rewards[1]!.pending).toBe(1);

    const off = await owner.client.request(`${base}/${second.reward.id}/active`, {
      method: "PATCH",
      json: { isActive: false },
    });
    expect(off.status).toBe(200);
    const page = (await (await shopper.client.request(`/api/shops/${shop.slug}`)).json()) as {
      rewards: { slug: string; title: string; reachable: boolean; refusal: string | null }[];
    };
    expect(page.rewards.map((r) => r.title)).toEqual(["Croissant aux amandes"]);
    expect(page.rewards[0]!.reachable).toBe(false);
    expect(page.rewards[0]!.refusal).toBe("Il vous manque 25 points pour cette récompense.");

    // Used: archived, not deleted; unused: deleted.
    expect(await (await owner.client.request(`${base}/${reward.id}`, { method: "DELETE" })).json()).toEqual({
      archived: true,
    });
    expect(await (await owner.client.request(`${base}/${second.reward.id}`, { method: "DELETE" })).json()).toEqual({
      archived: false,
    });
    expect((await shopper.client.request(`/api/rewards/${reward.slug}`)).status).toBe(404);
    const still = (await (await shopper.client.request(`/api/redemptions/${made.body.redemption.id}`)).json()) as {
      redemption: Redemption;
    };
    expect(still.redemption.status).toBe("pending");
  });

  it("the reward page and the card glance say what is reachable", async () => {
    const { shop, reward, shopper, cardId } = await setup({ points: 12, cost: 10 });
    await createReward(t.deps, { shopId: shop.id, title: "Gâteau", cost: 50 });
    const pageRes = await shopper.client.request(`/api/rewards/${reward.slug}`);
    const page = (await pageRes.json()) as {
      reward: { reachable: boolean };
      card: { balance: number };
      shop: { slug: string };
    };
    expect(page).toMatchObject({ reward: { reachable: true }, card: { balance: 12 }, shop: { slug: shop.slug } });
    const visitor = t.client();
    const visitorPage = (await (await visitor.request(`/api/rewards/${reward.slug}`)).json()) as {
      reward: { reachable: boolean; refusal: null };
      card: null;
    };
    expect(visitorPage).toMatchObject({ reward: { reachable: false, refusal: null }, card: null });
    const cardsRes = (await (await shopper.client.request("/api/cards")).json()) as {
      cards: { id: string; rewards: { reachable: number; next: { title: string; missing: number } | null } }[];
    };
    expect(cardsRes.cards.find((c) => c.id === cardId)!.rewards).toEqual({
      reachable: 1,
      next: { title: "Gâteau", slug: expect.any(String), cost: 50, missing: 38 },
    });
  });
});

describe("VIP levels and gifts", () => {
  it("levels follow lifetime points: a level's multiplier applies to visits, spending never lowers it, its gift is once", async () => {
    const { shop, owner, reward, shopper, cardId } = await setup({ points: 100, cost: 80 });
    const gift = await createReward(t.deps, { shopId: shop.id, title: "Tote bag", cost: 500, isActive: false });
    const bad = await owner.client.request(`/api/backoffice/shops/${shop.id}/vip-tiers`, {
      method: "PUT",
      json: {
        tiers: [
          { name: "Or", threshold: 100, multiplier: 2 },
          { name: "Argent", threshold: 50, multiplier: 1 },
        ],
      },
    });
    expect(bad.status).toBe(400);
    const set = await owner.client.request(`/api/backoffice/shops/${shop.id}/vip-tiers`, {
      method: "PUT",
      json: {
        tiers: [
          { name: "Argent", threshold: 50, multiplier: 1, rewardId: gift.id },
          { name: "Or", threshold: 100, multiplier: 2 },
          { name: "Platine", threshold: 1000, multiplier: 3 },
        ],
      },
    });
    expect(set.status).toBe(200);

    // Spend 80 of 100: the balance drops, the level does not.
    expect((await redeem(shopper.client, reward.slug)).res.status).toBe(201);
    const vip = (await (await shopper.client.request("/api/rewards/vip")).json()) as {
      cards: {
        cardId: string;
        current: { name: string } | null;
        next: { name: string; missing: number } | null;
        gifts: { tierId: string; redemptionId: string | null }[];
      }[];
    };
    const mine = vip.cards.find((c) => c.cardId === cardId)!;
    expect(mine.current?.name).toBe("Or");
    expect(mine.next).toMatchObject({ name: "Platine", missing: 900 });
    expect(mine.gifts).toHaveLength(1);

    // A visit is worth ×2 at level Or (10 points per visit → 20).
    const visit = await scan(shopper.client, t.deps.db, shop.id);
    expect(visit.body.accepted).toBe(true);
    expect(visit.body.delta).toBe(20);
    expect(visit.body.multiplier).toBe(2);

    // The level's gift: free, once, even though the reward is not in the catalogue.
    const claim = (key = newKey()) =>
      shopper.client.request("/api/rewards/gifts", {
        json: { cardId, source: "vip", tierId: mine.gifts[0]!.tierId, idempotencyKey: key },
      });
    const first = await claim();
    expect(first.status).toBe(201);
    const firstBody = (await first.json()) as { redemption: Redemption & { costLabel: string } };
    expect(firstBody.redemption.costLabel).toBe("Offert");
    expect((await balanceOf(cardId)).balance).toBe(40);
    const again = await claim();
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe("Vous avez déjà obtenu cette récompense.");

    // A level not reached gives nothing.
    const other = await signedIn(t);
    const { cardId: otherCard } = await grantPoints(t.deps, { shopId: shop.id, userId: other.user.id, points: 10 });
    const tiers = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/vip-tiers`)).json()) as {
      tiers: { id: string; name: string }[];
    };
    const argent = tiers.tiers.find((x) => x.name === "Argent")!;
    const notYet = await other.client.request("/api/rewards/gifts", {
      json: { cardId: otherCard, source: "vip", tierId: argent.id, idempotencyKey: newKey() },
    });
    expect(notYet.status).toBe(409);
  });

  it("the birthday gift: in the birthday week only, once a year", async () => {
    const { shop, owner, shopper, cardId } = await setup({ points: 0 });
    const cake = await createReward(t.deps, { shopId: shop.id, title: "Part de gâteau", cost: 20 });
    await owner.client.request(`/api/backoffice/shops/${shop.id}/reward-settings`, {
      method: "PUT",
      json: { redemptionTtlMinutes: 15, birthdayRewardId: cake.id },
    });
    const claim = () =>
      shopper.client.request("/api/rewards/gifts", { json: { cardId, source: "birthday", idempotencyKey: newKey() } });
    // No birthday given: nothing.
    expect((await claim()).status).toBe(409);
    // Born on this day (Paris time) some years ago.
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris" }).format(new Date());
    await t.deps.db
      .update(profiles)
      .set({ birthday: `1990${today.slice(4)}` })
      .where(eq(profiles.id, shopper.user.id));
    const vip = (await (await shopper.client.request("/api/rewards/vip")).json()) as {
      cards: { cardId: string; gifts: { source: string }[] }[];
    };
    expect(vip.cards.find((c) => c.cardId === cardId)!.gifts.map((g) => g.source)).toEqual(["birthday"]);
    expect((await claim()).status).toBe(201);
    expect((await claim()).status).toBe(409);
  });
});

describe("what is owed", () => {
  it("shows pending and validated redemptions and outstanding points", async () => {
    const { shop, owner, reward, shopper } = await setup({ points: 30, cost: 10 });
    const other = await signedIn(t);
    await grantPoints(t.deps, { shopId: shop.id, userId: other.user.id, points: 4 });
    const first = await redeem(shopper.client, reward.slug);
    await redeem(shopper.client, reward.slug);
    await owner.client.request(`/api/backoffice/shops/${shop.id}/redemptions/${first.body.redemption.id}/validate`, {
      method: "POST",
    });
    const owed = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/owed`)).json()) as Record<
      string,
      unknown
    >;
    expect(owed).toMatchObject({
      pending: { count: 1, cost: 10, costLabel: "10 points" },
      validated: { count: 1, cost: 10 },
      outstanding: { points: 14, label: "14 points", holders: 2 },
      canRedeemNow: 1,
      cheapestRewardLabel: "10 points",
    });
    const staff = await signedIn(t);
    await addStaff(t.deps, shop.id, staff.user.id);
    expect((await staff.client.request(`/api/backoffice/shops/${shop.id}/owed`)).status).toBe(403);
  });
});
