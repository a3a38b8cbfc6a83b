import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { prepaidEntries, prepaidHoldings } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { findPrepaidMismatches } from "../setup/ledger.ts";
import { type Client, newKey, personalCodeOf, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 28 item 3 (ADR 0049): prepaid bundles and gift cards sold at the till, on their own ledger. */

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
  lastDay: string;
  isExpired: boolean;
  holder: string | null;
};

/** Intl writes a narrow no-break space before « € » and between thousands: compared as plain spaces. */
const plain = (s: string) => s.replace(/\s/g, " ");

async function shopWithProducts() {
  const { shop, owner } = await shopWithOwner(t);
  const base = `/api/backoffice/shops/${shop.id}`;
  const staff = await signedIn(t, { firstName: "Sam" });
  await addStaff(t.deps, shop.id, staff.user.id);
  const carnet = await owner.client.request(`${base}/prepaid/products`, {
    json: { kind: "units", title: "Carnet de 10 coupes", quantity: 10, priceCents: 20000, validityMonths: 12 },
  });
  expect(carnet.status).toBe(201);
  const gift = await owner.client.request(`${base}/prepaid/products`, {
    json: { kind: "euros", title: "Carte cadeau 30 €", quantity: 3000, priceCents: 3000, validityMonths: 12 },
  });
  const carnetId = ((await carnet.json()) as { product: { id: string } }).product.id;
  const giftId = ((await gift.json()) as { product: { id: string } }).product.id;
  return { shop, owner, staff, base, carnetId, giftId };
}

async function sell(client: Client, base: string, json: Record<string, unknown>) {
  const res = await client.request(`${base}/prepaid/sales`, {
    json: { paymentMethod: "card", idempotencyKey: newKey(), ...json },
  });
  return { res, body: (await res.json()) as { holding: Holding; message?: string } };
}

const use = (client: Client, base: string, code: string, amount: number, key = newKey()) =>
  client.request(`${base}/prepaid/uses`, { json: { code, amount, idempotencyKey: key } });

describe("prepaid products and sales at the till", () => {
  it("the owner defines a bundle and a gift card; bad input answers in French", async () => {
    const { owner, base } = await shopWithProducts();
    const list = (await (await owner.client.request(`${base}/prepaid/products`)).json()) as {
      products: { title: string; quantityLabel: string; priceLabel: string }[];
    };
    expect(list.products.map((p) => [p.title, plain(p.quantityLabel)])).toEqual([
      ["Carnet de 10 coupes", "10 unités"],
      ["Carte cadeau 30 €", "30,00 €"],
    ]);
    const bad = await owner.client.request(`${base}/prepaid/products`, {
      json: { kind: "units", title: "X", quantity: 0, priceCents: -1, validityMonths: 0 },
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { fields: Record<string, string> };
    expect(body.fields.validityMonths).toBe("Validité : au moins 1 mois.");
    expect(body.fields.quantity).toBe("Au moins 1.");
  });

  it("staff sell a bundle to a customer by their code; the shopper holds it with its end date; staff never sell to themselves", async () => {
    const { staff, base, carnetId } = await shopWithProducts();
    const shopper = await signedIn(t, { firstName: "Léa" });
    const sale = await sell(staff.client, base, {
      productId: carnetId,
      customerCode: await personalCodeOf(shopper.client),
    });
    expect(sale.res.status).toBe(201);
    expect(sale.body.holding).toMatchObject({ balance: 10, balanceLabel: "10 unités", holder: "Léa" });
    const mine = (await (await shopper.client.request("/api/prepaid/mine")).json()) as { holdings: Holding[] };
    expect(mine.holdings).toHaveLength(1);
    expect(mine.holdings[0]!.lastDay).toMatch(/^\d{1,2} \S+ \d{4}$/);
    expect(mine.holdings[0]!.isExpired).toBe(false);

    const self = await sell(staff.client, base, {
      productId: carnetId,
      customerCode: await personalCodeOf(staff.client),
    });
    expect(self.res.status).toBe(403);
    expect(self.body.message).toBe(
      "Vous ne pouvez pas vendre, débiter ni annuler un débit pour vous-même : un collègue doit s'en charger.",
    );
  });

  it("50 concurrent uses of a 10-unit bundle: exactly 10 go through, the balance never goes below zero", async () => {
    const { staff, owner, base, carnetId, shop } = await shopWithProducts();
    const shopper = await signedIn(t);
    const { body } = await sell(owner.client, base, {
      productId: carnetId,
      customerCode: await personalCodeOf(shopper.client),
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => use(i % 2 ? staff.client : owner.client, base, body.holding.code, 1)),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    const refused = (await answers.find((r) => r.status === 409)!.json()) as { message: string };
    expect(refused.message).toBe("Solde insuffisant : il reste 0 unité.");
    const [row] = await t.deps.db.select().from(prepaidHoldings).where(eq(prepaidHoldings.id, body.holding.id));
    expect(row!.balance).toBe(0);
    const entries = await t.deps.db.select().from(prepaidEntries).where(eq(prepaidEntries.holdingId, body.holding.id));
    expect(entries.filter((e) => e.kind === "use")).toHaveLength(10);
    expect(await findPrepaidMismatches(t.deps.db, shop.id)).toEqual([]);
  });

  it("a retried use with the same key is counted once", async () => {
    const { staff, base, carnetId } = await shopWithProducts();
    const shopper = await signedIn(t);
    const { body } = await sell(staff.client, base, {
      productId: carnetId,
      customerCode: await personalCodeOf(shopper.client),
    });
    const key = newKey();
    const [a, b] = await Promise.all([
      use(staff.client, base, body.holding.code, 2, key),
      use(staff.client, base, body.holding.code, 2, key),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    const after = (await (await staff.client.request(`${base}/prepaid/lookup?code=${body.holding.code}`)).json()) as {
      holding: Holding;
    };
    expect(after.holding.balance).toBe(8);
  });

  it("an expired bundle refuses in French, naming its last day", async () => {
    const { staff, base, carnetId } = await shopWithProducts();
    const shopper = await signedIn(t);
    const { body } = await sell(staff.client, base, {
      productId: carnetId,
      customerCode: await personalCodeOf(shopper.client),
    });
    await t.deps.db
      .update(prepaidHoldings)
      .set({ expiresAt: new Date("2026-03-13T23:00:00Z") })
      .where(eq(prepaidHoldings.id, body.holding.id));
    const res = await use(staff.client, base, body.holding.code, 1);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(
      "Ce carnet ou cette carte cadeau a expiré le 13 mars 2026 : il n'est plus utilisable.",
    );
    const mine = (await (await shopper.client.request("/api/prepaid/mine")).json()) as { holdings: Holding[] };
    expect(mine.holdings[0]).toMatchObject({ isExpired: true, balance: 10 });
  });

  it("staff cannot use their own bundle; a colleague can; another shop's staff find nothing", async () => {
    const { staff, owner, base, carnetId } = await shopWithProducts();
    const { body } = await sell(owner.client, base, {
      productId: carnetId,
      customerCode: await personalCodeOf(staff.client),
    });
    const own = await use(staff.client, base, body.holding.code, 1);
    expect(own.status).toBe(403);
    expect((await use(owner.client, base, body.holding.code, 1)).status).toBe(201);
    const other = await shopWithProducts();
    const res = await use(other.owner.client, other.base, body.holding.code, 1);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe(
      "Aucun carnet ni carte cadeau avec ce code dans votre boutique.",
    );
  });

  it("a gift card sent by e-mail waits for its claim; the person claims it once signed up; nobody claims it twice", async () => {
    const { staff, base, giftId } = await shopWithProducts();
    const email = `cadeau-${newKey().slice(0, 8)}@example.test`;
    const sale = await sell(staff.client, base, { productId: giftId, giftEmail: email });
    expect(sale.res.status).toBe(201);
    expect(sale.body.holding.holder).toBeNull();
    expect(plain(sale.body.holding.balanceLabel)).toBe("30,00 €");
    const mail = t.lastMail(email, "prepaid-gift");
    expect(mail.text).toContain("Carte cadeau 30 €");
    expect(mail.text).toContain("valable jusqu'au");
    const link = /\/recuperer\?code=([A-Z0-9]{12})/.exec(mail.text)!;
    // Not usable before it is claimed.
    expect((await use(staff.client, base, sale.body.holding.code, 100)).status).toBe(409);
    // The seller cannot claim what they sold.
    const bySeller = await staff.client.request("/api/prepaid/claim", { json: { code: link[1] } });
    expect(bySeller.status).toBe(403);

    const friend = await signedIn(t, { email });
    const claim = await friend.client.request("/api/prepaid/claim", { json: { code: link[1] } });
    expect(claim.status).toBe(200);
    expect(plain(((await claim.json()) as { holding: Holding }).holding.balanceLabel)).toBe("30,00 €");
    const again = await (await signedIn(t)).client.request("/api/prepaid/claim", { json: { code: link[1] } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toBe("Ce code a déjà été utilisé.");
    const spent = await use(staff.client, base, sale.body.holding.code, 1250);
    expect(spent.status).toBe(201);
    expect(plain(((await spent.json()) as { holding: Holding }).holding.balanceLabel)).toBe("17,50 €");
  });

  it("the owner sees what is outstanding and exports it; staff do not", async () => {
    const { staff, owner, base, carnetId, giftId } = await shopWithProducts();
    const shopper = await signedIn(t, { firstName: "Inès", lastName: "Martin" });
    const code = await personalCodeOf(shopper.client);
    const { body } = await sell(staff.client, base, { productId: carnetId, customerCode: code });
    await sell(staff.client, base, { productId: giftId, customerCode: code, paymentMethod: "cash" });
    await use(staff.client, base, body.holding.code, 3);
    const liability = (await (await owner.client.request(`${base}/prepaid/liability`)).json()) as {
      units: { outstanding: number; outstandingLabel: string };
      euros: { outstandingLabel: string };
      sales12Months: { label: string };
      acprThreshold: { label: string; reached: boolean };
    };
    expect(liability.units.outstandingLabel).toBe("7 unités");
    expect(plain(liability.euros.outstandingLabel)).toBe("30,00 €");
    expect(plain(liability.sales12Months.label)).toBe("230,00 €");
    expect(liability.acprThreshold).toMatchObject({ reached: false });
    expect(plain(liability.acprThreshold.label)).toBe("1 000 000,00 €");

    const csv = await owner.client.request(`${base}/prepaid/liability.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const text = await csv.text();
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toContain("Produit;Type;Code;Titulaire");
    expect(lines).toHaveLength(3);
    expect(text).toContain("Inès Martin");
    expect(text).toContain("Carnet de 10 coupes;Carnet");
    expect((await staff.client.request(`${base}/prepaid/liability`)).status).toBe(403);
  });

  it("the prepaid ledger is append-only", async () => {
    // drizzle wraps the database's refusal: the trigger's message is the cause's.
    const refusal = (work: Promise<unknown>) =>
      work.then(
        () => "accepted",
        (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
      );
    expect(await refusal(t.deps.db.execute(sql`update prepaid_entries set delta = delta + 1`))).toMatch(
      /prepaid_entries is append-only: UPDATE refused/,
    );
    expect(await refusal(t.deps.db.execute(sql`delete from prepaid_entries`))).toMatch(
      /prepaid_entries is append-only: DELETE refused/,
    );
    expect(await findPrepaidMismatches(t.deps.db)).toEqual([]);
  });
});
