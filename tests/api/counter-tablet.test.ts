import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCents } from "../../src/domain/loyalty/amount.ts";
import { importReceiptKey, parseReceiptCode, verifyReceiptCode } from "../../src/domain/loyalty/receipt-code.ts";
import { addStaff } from "../../src/server/db/factories.ts";
import { auditLog, counterTablets, receiptClaims, shops } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 29 item 6, the counter tablet (ADR 0054): the owner pairs it with a one-time link; its credential (a
 * cookie for /api/tablet only) shows this shop's code and last visits and, behind the staff PIN, makes amount codes
 * that a shopper's phone claims once through the receipt route; it opens nothing of the back office.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const PIN = "4827";

async function byAmountShop(name = "Épicerie Lune", receiptWindowMinutes = 60) {
  const made = await shopWithOwner(t, { name });
  await t.deps.db
    .update(shops)
    .set({ cardMode: "points", earnBy: "amount", pointsPerEuro: 1, cooldownMinutes: 0, receiptWindowMinutes })
    .where(eq(shops.id, made.shop.id));
  return made;
}

async function createTablet(owner: Client, shopId: string, name = "Comptoir", pin = PIN) {
  const res = await owner.request(`/api/backoffice/shops/${shopId}/tablets`, { json: { name, pin } });
  expect(res.status).toBe(201);
  return (await res.json()) as { tablet: { id: string; name: string }; pairingUrl: string };
}

/** A fresh browser that opens the pairing link, as the tablet does. */
async function pairedTablet(owner: Client, shopId: string, pin = PIN) {
  const { tablet, pairingUrl } = await createTablet(owner, shopId, "Comptoir", pin);
  const device = t.client();
  const code = pairingUrl.split("#appairage=")[1]!;
  const res = await device.request("/api/tablet/pair", { json: { code } });
  expect(res.status).toBe(200);
  return { device, tabletId: tablet.id, code, setCookie: res.headers.get("set-cookie") ?? "" };
}

const amountCode = (device: Client, amountCents: number, pin = PIN) =>
  device.request("/api/tablet/amount-codes", { json: { pin, amountCents } });

const claim = (client: Client, code: string) =>
  client.request("/api/cards/receipt", { json: { code, idempotencyKey: newKey() } });

describe("pairing", () => {
  it("is the owner's: staff, a shopper and anonymous are refused; the link is shown once, spent once, audited", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const staff = await signedIn(t);
    await addStaff(t.deps, shop.id, staff.user.id, "member");
    const shopper = await signedIn(t);
    const path = `/api/backoffice/shops/${shop.id}/tablets`;
    expect((await staff.client.request(path, { json: { name: "Comptoir", pin: PIN } })).status).toBe(403);
    expect((await staff.client.request(path)).status).toBe(403);
    expect((await shopper.client.request(path, { json: { name: "Comptoir", pin: PIN } })).status).toBe(403);
    expect((await t.client().request(path, { json: { name: "Comptoir", pin: PIN } })).status).toBe(401);

    // Inputs checked, in French.
    const bad = await owner.client.request(path, { json: { name: "C", pin: "12" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields).toEqual({
      name: "Nom : au moins 2 caractères.",
      pin: "Code PIN : 4 à 8 chiffres.",
    });

    const { tablet, pairingUrl } = await createTablet(owner.client, shop.id);
    expect(pairingUrl).toMatch(/^http:\/\/fidele\.test\/tablette#appairage=[A-Za-z0-9_-]{43}$/);
    const listed = await (await owner.client.request(path)).json();
    expect(listed.tablets).toEqual([
      expect.objectContaining({ id: tablet.id, name: "Comptoir", pairedAt: null, revokedAt: null }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(pairingUrl.split("#appairage=")[1]);
    // Only hashes are kept.
    const [row] = await t.deps.db.select().from(counterTablets).where(eq(counterTablets.id, tablet.id));
    expect(row!.pinHash).toMatch(/^scrypt\$/);
    expect(row!.pinHash).not.toContain(PIN);

    const device = t.client();
    const code = pairingUrl.split("#appairage=")[1]!;
    const paired = await device.request("/api/tablet/pair", { json: { code } });
    expect(paired.status).toBe(200);
    const cookie = paired.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^fidele\.tablet=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain("Path=/api/tablet");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    // The link works once.
    const again = await t.client().request("/api/tablet/pair", { json: { code } });
    expect(again.status).toBe(404);
    expect((await again.json()).message).toMatch(/^Ce lien d'appairage n'est plus valable/);
    expect((await t.client().request("/api/tablet/pair", { json: { code: "court" } })).status).toBe(400);

    const screen = await (await device.request("/api/tablet")).json();
    expect(screen).toMatchObject({ tablet: { name: "Comptoir" }, shop: { name: shop.name }, amount: null });
    const after = await (await owner.client.request(path)).json();
    expect(after.tablets[0].pairedAt).not.toBeNull();
    expect(after.tablets[0].lastSeenAt).not.toBeNull();

    const audits = await t.deps.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.shopId, shop.id), eq(auditLog.target, tablet.id)));
    expect(audits.map((a) => a.action)).toEqual(["tablet.create"]);
  });

  it("a revoked tablet is refused at once and its cookie dropped; another shop's owner cannot revoke it", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const other = await shopWithOwner(t);
    const { device, tabletId } = await pairedTablet(owner.client, shop.id);
    expect((await device.request("/api/tablet/code")).status).toBe(200);

    const foreign = await other.owner.client.request(`/api/backoffice/shops/${shop.id}/tablets/${tabletId}/revoke`, {
      method: "POST",
    });
    expect(foreign.status).toBe(404);
    const wrongShop = await other.owner.client.request(
      `/api/backoffice/shops/${other.shop.id}/tablets/${tabletId}/revoke`,
      { method: "POST" },
    );
    expect(wrongShop.status).toBe(404);
    expect((await device.request("/api/tablet/code")).status).toBe(200);

    const revoked = await owner.client.request(`/api/backoffice/shops/${shop.id}/tablets/${tabletId}/revoke`, {
      method: "POST",
    });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).tablet.revokedAt).not.toBeNull();
    const refused = await device.request("/api/tablet/code");
    expect(refused.status).toBe(401);
    expect((await refused.json()).message).toMatch(/^Cette tablette n'est reliée à aucune boutique/);
    expect(device.jar.has("fidele.tablet")).toBe(false);
    const audits = await t.deps.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.shopId, shop.id), eq(auditLog.target, tabletId)));
    expect(audits.map((a) => a.action).sort()).toEqual(["tablet.create", "tablet.revoke"]);
  });
});

describe("the tablet's credential", () => {
  it("opens its own shop's code and nothing of the back office, nor of a signed-in person", async () => {
    const a = await shopWithOwner(t, { name: "Boutique A" });
    const b = await shopWithOwner(t, { name: "Boutique B" });
    const { device } = await pairedTablet(a.owner.client, a.shop.id);

    const code = await (await device.request("/api/tablet/code")).json();
    expect(code.shop.name).toBe("Boutique A");
    expect(code.url).toContain(`/boutique/${a.shop.scanUid}`);
    const ahead = await (await device.request("/api/tablet/code/ahead")).json();
    expect(ahead.scanUid).toBe(a.shop.scanUid);
    expect(ahead.tokens.length).toBeGreaterThan(100);

    for (const path of [
      `/api/backoffice/shops/${a.shop.id}/reader`,
      `/api/backoffice/shops/${a.shop.id}/today`,
      `/api/backoffice/shops/${a.shop.id}/tablets`,
      `/api/backoffice/shops/${a.shop.id}/customers`,
      `/api/backoffice/shops/${b.shop.id}/reader`,
      "/api/backoffice/customers",
      "/api/cards",
      "/api/cards/personal-code",
    ]) {
      expect((await device.request(path)).status, path).toBe(401);
    }
    const write = await device.request(`/api/backoffice/shops/${a.shop.id}/tablets`, {
      json: { name: "Intrus", pin: PIN },
    });
    expect(write.status).toBe(401);
    // Nothing but a paired tablet's cookie opens the tablet routes: a signed-in owner has none.
    expect((await a.owner.client.request("/api/tablet/code")).status).toBe(401);
    expect((await t.client().request("/api/tablet/visits")).status).toBe(401);
    const forged = t.client();
    forged.jar.set("fidele.tablet", "A".repeat(43));
    expect((await forged.request("/api/tablet")).status).toBe(401);
  });

  it("lists only its shop's last credited visits, first name and initial", async () => {
    const a = await shopWithOwner(t, { name: "Boutique Visites A", rules: { mode: "points", cooldownMinutes: 0 } });
    const b = await shopWithOwner(t, { name: "Boutique Visites B", rules: { mode: "points", cooldownMinutes: 0 } });
    const { device } = await pairedTablet(a.owner.client, a.shop.id);
    const camille = await signedIn(t, { firstName: "Camille", lastName: "durand" });
    const yann = await signedIn(t, { firstName: "Yann", lastName: "Le Goff" });
    expect((await scan(camille.client, t.deps.db, a.shop.id)).body.accepted).toBe(true);
    expect((await scan(yann.client, t.deps.db, b.shop.id)).body.accepted).toBe(true);
    const { visits } = await (await device.request("/api/tablet/visits")).json();
    expect(visits).toEqual([expect.objectContaining({ name: "Camille D.", delta: expect.any(Number) })]);
    expect(JSON.stringify(visits)).not.toContain("durand");
  });
});

describe("amount codes", () => {
  it("credit the amount's points once when a shopper claims them through the receipt route", async () => {
    const { shop, owner } = await byAmountShop("Épicerie Lune", 60);
    const other = await byAmountShop("Épicerie Soleil", 60);
    const { device } = await pairedTablet(owner.client, shop.id);
    const screen = await (await device.request("/api/tablet")).json();
    expect(screen.amount).toEqual({
      rule: "1 point par euro dépensé, arrondi au point inférieur",
      maxCents: 100_000,
    });

    const res = await amountCode(device, 2390);
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made).toMatchObject({ amountCents: 2390, points: 23 });
    expect(made.url).toBe(`http://fidele.test/ticket?c=${encodeURIComponent(made.code)}`);
    // The shop had no receipt key: the tablet's first code made one.
    const [row] = await t.deps.db.select().from(shops).where(eq(shops.id, shop.id));
    expect(row!.receiptSecret).toBeTruthy();
    // The code dies with its five minutes on screen: the shop's 60-minute window ends then.
    const parsed = parseReceiptCode(made.code)!;
    const key = await importReceiptKey(row!.receiptSecret!);
    const expiresMs = Date.parse(made.expiresAt);
    expect(expiresMs - Date.now()).toBeGreaterThan(280_000);
    expect(expiresMs - Date.now()).toBeLessThanOrEqual(300_000);
    expect(await verifyReceiptCode(key, parsed, 60, expiresMs - 2_000)).toBe("valid");
    expect(await verifyReceiptCode(key, parsed, 60, expiresMs + 2_000)).toBe("expired");

    const status = `/api/tablet/amount-codes/${made.receiptId}`;
    expect(await (await device.request(status)).json()).toEqual({ claimed: false, customer: null, delta: null });

    const first = await signedIn(t, { firstName: "Nour", lastName: "Haddad" });
    const second = await signedIn(t, { firstName: "Léo", lastName: "Martin" });
    const answers = await Promise.all([claim(first.client, made.code), claim(second.client, made.code)]);
    const outcomes = await Promise.all(answers.map(async (r) => (await r.json()).outcome));
    expect(outcomes.sort()).toEqual(["accepted", "receipt_used"]);
    const spent = await t.deps.db.select().from(receiptClaims).where(eq(receiptClaims.shopId, shop.id));
    expect(spent).toHaveLength(1);
    const winner = spent[0]!.userId === first.user.id ? "Nour H." : "Léo M.";
    expect(await (await device.request(status)).json()).toEqual({ claimed: true, customer: winner, delta: 23 });
    const { visits } = await (await device.request("/api/tablet/visits")).json();
    expect(visits[0]).toMatchObject({ name: winner, delta: 23, amountCents: 2390 });

    // The owner's list: the tablet's codes of the day, for how much, how many a customer scanned (a second code,
    // never scanned, counts in the first two only).
    expect((await amountCode(device, 1010)).status).toBe(201);
    const listed = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/tablets`)).json();
    expect(listed.tablets[0].today).toMatchObject({ codes: 2, claimed: 1 });
    expect(listed.tablets[0].today.amountLabel.replace(/\s/g, " ")).toBe("34,00 €");

    // Another shop's tablet learns nothing of this code.
    const elsewhere = await pairedTablet(other.owner.client, other.shop.id);
    expect(await (await elsewhere.device.request(status)).json()).toMatchObject({ claimed: false });
    expect((await (await elsewhere.device.request("/api/tablet/visits")).json()).visits).toEqual([]);
    const theirs = await (await other.owner.client.request(`/api/backoffice/shops/${other.shop.id}/tablets`)).json();
    expect(theirs.tablets[0].today).toBeNull();
  });

  it("wrong PINs lock amount entry after five; every input is checked in French, capped at 1 000 €", async () => {
    const { shop, owner } = await byAmountShop("Fromagerie PIN");
    const { device } = await pairedTablet(owner.client, shop.id);

    const cap = await amountCode(device, 100_001);
    expect(cap.status).toBe(400);
    expect((await cap.json()).fields.amountCents).toBe(
      `Montant trop élevé : ${formatCents(100_000)} au plus sur la tablette.`,
    );
    for (const body of [
      {},
      { pin: "12", amountCents: 100 },
      { pin: PIN, amountCents: -5 },
      { pin: PIN, amountCents: 1.5 },
    ]) {
      expect((await device.request("/api/tablet/amount-codes", { json: body })).status).toBe(400);
    }
    const tiny = await amountCode(device, 50);
    expect(tiny.status).toBe(400);
    expect((await tiny.json()).message).toBe("Ce montant ne suffit pas pour gagner un point.");
    expect((await device.request("/api/tablet/amount-codes/nope")).status).toBe(400);

    // A good PIN does not count; five wrong ones do, then even the right one waits.
    expect((await amountCode(device, 1000)).status).toBe(201);
    for (let i = 0; i < 5; i++) {
      const wrong = await amountCode(device, 1000, "0000");
      expect(wrong.status).toBe(403);
      expect((await wrong.json()).fields).toEqual({ pin: "Code PIN incorrect." });
    }
    const locked = await amountCode(device, 1000);
    expect(locked.status).toBe(429);
    expect((await locked.json()).message).toMatch(
      /^Trop de codes PIN erronés : la saisie d'un montant est bloquée 10 minutes\.$/,
    );
  });

  it("twenty wrong PINs in a day lock amount entry for the day, whatever the 10-minute windows", async () => {
    const { shop, owner } = await byAmountShop("Fromagerie Patiente");
    const { device, tabletId } = await pairedTablet(owner.client, shop.id);
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 5; i++) expect((await amountCode(device, 1000, "0000")).status).toBe(403);
      // Ten minutes pass: the short window starts again.
      await t.deps.db.execute(
        sql`update auth_throttle set window_start = now() - interval '11 minutes' where key = ${`tablet-pin:${tabletId}`}`,
      );
    }
    const locked = await amountCode(device, 1000);
    expect(locked.status).toBe(429);
    expect((await locked.json()).message).toMatch(
      /^Trop de codes PIN erronés : la saisie d'un montant est bloquée (2[0-4]) heures\.$/,
    );
  });

  it("a shop that earns by visit gets no amount entry, said plainly", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "stamps" } });
    const { device } = await pairedTablet(owner.client, shop.id);
    expect((await (await device.request("/api/tablet")).json()).amount).toBeNull();
    const res = await amountCode(device, 1000);
    expect(res.status).toBe(409);
    expect((await res.json()).message).toMatch(/donne ses points par passage/);
  });
});
