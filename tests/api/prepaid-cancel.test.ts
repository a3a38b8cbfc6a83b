import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { auditLog, prepaidEntries, prepaidHoldings } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { findPrepaidMismatches } from "../setup/ledger.ts";
import { type Client, newKey, personalCodeOf, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * A use typed wrong at the till is given back (ADR 0049): by whoever typed it within 10 minutes, by the owner or a
 * manager at any time, never on one's own bundle, once, in another shop never.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Holding = {
  id: string;
  code: string;
  balance: number;
  balanceLabel: string;
  history: { label: string; amountLabel: string; at: string }[];
};
type Answer = { holding: Holding; entryId: number; message?: string };

const plain = (s: string) => s.replace(/\s/g, " ");

/** A shop with an owner, a staff member, a manager and a customer holding a 10-unit bundle and a 30 € gift card. */
async function counter() {
  const { shop, owner } = await shopWithOwner(t);
  const base = `/api/backoffice/shops/${shop.id}`;
  const staff = await signedIn(t, { firstName: "Sam" });
  await addStaff(t.deps, shop.id, staff.user.id);
  const colleague = await signedIn(t, { firstName: "Noé" });
  await addStaff(t.deps, shop.id, colleague.user.id);
  const manager = await signedIn(t, { firstName: "Maud" });
  await addStaff(t.deps, shop.id, manager.user.id, "admin");
  const product = async (json: Record<string, unknown>) =>
    ((await (await owner.client.request(`${base}/prepaid/products`, { json })).json()) as { product: { id: string } })
      .product.id;
  const carnetId = await product({
    kind: "units",
    title: "Carnet",
    quantity: 10,
    priceCents: 20000,
    validityMonths: 12,
  });
  const giftId = await product({
    kind: "euros",
    title: "Carte 30 €",
    quantity: 3000,
    priceCents: 3000,
    validityMonths: 12,
  });
  const shopper = await signedIn(t, { firstName: "Léa" });
  const sell = async (productId: string, to: Client = shopper.client) =>
    (
      (await (
        await owner.client.request(`${base}/prepaid/sales`, {
          json: { productId, customerCode: await personalCodeOf(to), paymentMethod: "card", idempotencyKey: newKey() },
        })
      ).json()) as Answer
    ).holding;
  return { shop, base, owner, staff, colleague, manager, shopper, carnetId, giftId, sell };
}

const use = async (client: Client, base: string, code: string, amount: number) => {
  const res = await client.request(`${base}/prepaid/uses`, { json: { code, amount, idempotencyKey: newKey() } });
  expect(res.status).toBe(201);
  return (await res.json()) as Answer;
};
const cancel = async (client: Client, base: string, entryId: number | string) => {
  const res = await client.request(`${base}/prepaid/entries/${entryId}/cancel`, { method: "POST" });
  return { status: res.status, replayed: res.headers.get("Idempotent-Replayed"), body: (await res.json()) as Answer };
};

describe("a prepaid use given back", () => {
  it("staff give back the amount they typed: the balance returns, the ledger says so, the log names them; a retry is the same cancel", async () => {
    const { shop, base, staff, owner, shopper, giftId, sell } = await counter();
    const gift = await sell(giftId);
    const typed = await use(staff.client, base, gift.code, 2500);
    expect(plain(typed.holding.balanceLabel)).toBe("5,00 €");
    expect(typed.entryId).toBeGreaterThan(0);

    const done = await cancel(staff.client, base, typed.entryId);
    expect(done.status).toBe(201);
    expect(done.body.holding.balance).toBe(3000);
    expect(plain(done.body.holding.balanceLabel)).toBe("30,00 €");
    // The counter and the holder read the same history, the latest first.
    const history = (h: Holding) => h.history.map((m) => [m.label, plain(m.amountLabel)]);
    const expected = [
      ["Débit annulé", "+25,00 €"],
      ["Utilisé au comptoir", "−25,00 €"],
      ["Achat", "+30,00 €"],
    ];
    expect(history(done.body.holding)).toEqual(expected);
    const mine = (await (await shopper.client.request("/api/prepaid/mine")).json()) as { holdings: Holding[] };
    expect(history(mine.holdings.find((h) => h.id === gift.id)!)).toEqual(expected);
    const entries = await t.deps.db.select().from(prepaidEntries).where(eq(prepaidEntries.holdingId, gift.id));
    expect(entries.map((e) => [e.kind, e.delta, e.reversesId])).toEqual([
      ["sale", 3000, null],
      ["use", -2500, null],
      ["cancel", 2500, typed.entryId],
    ]);
    const [line] = await t.deps.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.shopId, shop.id), eq(auditLog.action, "prepaid.cancel")));
    expect(line).toMatchObject({ actorId: staff.user.id, target: gift.id });
    expect(line!.details).toMatchObject({ entry: typed.entryId, what: "use" });
    expect(plain(String((line!.details as { amount: string }).amount))).toBe("+25,00 €");

    // A retried tap is the same cancel; anyone else is told it is done.
    const again = await cancel(staff.client, base, typed.entryId);
    expect([again.status, again.replayed, again.body.holding.balance]).toEqual([200, "true", 3000]);
    const byOwner = await cancel(owner.client, base, typed.entryId);
    expect(byOwner.status).toBe(409);
    expect(byOwner.body.message).toBe("Cette opération a déjà été annulée.");
    expect(await findPrepaidMismatches(t.deps.db, shop.id)).toEqual([]);
  });

  it("a colleague cannot give back someone else's use, nor its author after 10 minutes; the owner and a manager can", async () => {
    const { shop, base, staff, colleague, owner, manager, carnetId, sell } = await counter();
    const carnet = await sell(carnetId);
    const first = await use(staff.client, base, carnet.code, 1);
    const byColleague = await cancel(colleague.client, base, first.entryId);
    expect(byColleague.status).toBe(403);
    expect(byColleague.body.message).toBe(
      "Seuls la personne qui a saisi cette opération, le propriétaire et les gérants de la boutique peuvent l'annuler.",
    );
    expect((await cancel(manager.client, base, first.entryId)).status).toBe(201);

    // A use typed 11 minutes ago (the ledger is append-only: written as such).
    const [old] = await t.deps.db
      .insert(prepaidEntries)
      .values({
        holdingId: carnet.id,
        shopId: shop.id,
        kind: "use",
        delta: -2,
        actorId: staff.user.id,
        idempotencyKey: newKey(),
        createdAt: new Date(Date.now() - 11 * 60_000),
      })
      .returning({ id: prepaidEntries.id });
    const late = await cancel(staff.client, base, old!.id);
    expect(late.status).toBe(403);
    expect(late.body.message).toBe(
      "Cette opération a plus de 10 minutes : seuls le propriétaire et les gérants de la boutique peuvent encore l'annuler.",
    );
    const byOwner = await cancel(owner.client, base, old!.id);
    expect(byOwner.status).toBe(201);
    expect(byOwner.body.holding.balance).toBe(10);
    expect(await findPrepaidMismatches(t.deps.db, shop.id)).toEqual([]);
  });

  it("nobody gives back a use of their own bundle; another shop or a bad number find nothing; a used sale stays", async () => {
    const { base, staff, owner, manager, carnetId, sell } = await counter();
    // The staff member holds a bundle at their own shop; the owner uses it; the staff member cannot undo that.
    const own = await sell(carnetId, staff.client);
    const typed = await use(owner.client, base, own.code, 3);
    const byHolder = await cancel(staff.client, base, typed.entryId);
    expect(byHolder.status).toBe(403);
    expect(byHolder.body.message).toBe(
      "Vous ne pouvez pas vendre, débiter ni annuler un débit pour vous-même : un collègue doit s'en charger.",
    );
    // A manager holding a bundle cannot give back a use of it either.
    const managers = await sell(carnetId, manager.client);
    const onManagers = await use(owner.client, base, managers.code, 1);
    expect((await cancel(manager.client, base, onManagers.entryId)).status).toBe(403);

    const other = await counter();
    const elsewhere = await cancel(other.owner.client, other.base, typed.entryId);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe("Aucun carnet ni carte cadeau avec ce code dans votre boutique.");
    const [sale] = await t.deps.db
      .select({ id: prepaidEntries.id })
      .from(prepaidEntries)
      .where(and(eq(prepaidEntries.holdingId, own.id), eq(prepaidEntries.kind, "sale")));
    // The bundle has served: its sale cannot be taken back while its uses stand.
    const used = await cancel(owner.client, base, sale!.id);
    expect(used.status).toBe(409);
    expect(used.body.message).toBe(
      "Ce carnet ou cette carte cadeau a déjà servi : annulez d'abord ses débits, puis la vente.",
    );
    for (const bad of ["abc", "0", "-4", "1e400"]) {
      const res = await cancel(owner.client, base, bad);
      expect(res.status).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
  });

  it("a sale not yet used is taken back: nothing left, no sale in the year's total, a gift's claim code dead", async () => {
    const { shop, base, owner, staff, shopper, giftId } = await counter();
    // A gift card sold to an address by a staff member, then taken back by them (the customer changed their mind).
    const sold = await staff.client.request(`${base}/prepaid/sales`, {
      json: {
        productId: giftId,
        giftEmail: `cadeau-${newKey().slice(0, 8)}@example.test`,
        paymentMethod: "cash",
        idempotencyKey: newKey(),
      },
    });
    expect(sold.status).toBe(201);
    const sale = (await sold.json()) as Answer & { priceLabel: string; entryId: number };
    expect(plain(sale.priceLabel)).toBe("30,00 €");
    const [holding] = await t.deps.db
      .select({ claimCode: prepaidHoldings.claimCode })
      .from(prepaidHoldings)
      .where(eq(prepaidHoldings.id, sale.holding.id));
    const back = await cancel(staff.client, base, sale.entryId);
    expect(back.status).toBe(201);
    expect(back.body.holding.balance).toBe(0);
    expect(back.body.holding.history.map((m) => [m.label, plain(m.amountLabel)])).toEqual([
      ["Vente annulée", "−30,00 €"],
      ["Achat", "+30,00 €"],
    ]);
    // Its claim code no longer gives anything.
    const claim = await shopper.client.request("/api/prepaid/claim", { json: { code: holding!.claimCode } });
    expect(claim.status).toBe(404);
    // The year's sales beside the ACPR threshold do not count it.
    const liability = (await (await owner.client.request(`${base}/prepaid/liability`)).json()) as {
      sales12Months: { cents: number };
      euros: { outstanding: number };
    };
    expect(liability).toMatchObject({ sales12Months: { cents: 0 }, euros: { outstanding: 0 } });
    expect(await findPrepaidMismatches(t.deps.db, shop.id)).toEqual([]);
  });

  it("10 cancels of one use at once, by its author and the owner: the amount comes back once", async () => {
    const { shop, base, staff, owner, carnetId, sell } = await counter();
    const carnet = await sell(carnetId);
    const typed = await use(staff.client, base, carnet.code, 4);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => cancel(i % 2 ? staff.client : owner.client, base, typed.entryId)),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.every((a) => [200, 201, 409].includes(a.status))).toBe(true);
    const [row] = (
      await t.deps.db.execute<{ n: number; balance: number }>(sql`
        select (select count(*)::int from prepaid_entries where reverses_id = ${typed.entryId}) as n,
               (select balance from prepaid_holdings where id = ${carnet.id}) as balance`)
    ).rows;
    expect([Number(row!.n), Number(row!.balance)]).toEqual([1, 10]);
    expect(await findPrepaidMismatches(t.deps.db, shop.id)).toEqual([]);
  });
});
