import { sql } from "drizzle-orm";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEFAULT_TIMEZONE, localParts } from "../../src/domain/loyalty/time.ts";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { trustCertificateAuthority } from "../../src/server/lib/outbound.ts";
import { eraseAccount } from "../../src/server/modules/accounts/rgpd.service.ts";
import { type GoogleWalletServer, startGoogleWallet } from "../fixtures/google-wallet-server.ts";
import { makeWalletCa, type WalletCa } from "../fixtures/wallet-ca.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { eventually } from "../setup/eventually.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { scan } from "./shops-helpers.ts";
import { cardAtShop, RED_PIXEL_PNG } from "./wallet-helpers.ts";

/**
 * Issue 26, acceptance row 4: the « Ajouter à Google Wallet » JWT verifies with the service account's public key and
 * carries the shop's class and the card's object; a scan PATCHes the object once; the phone is notified at most 3
 * times a pass a day; Google's quota error is waited out; an erased account's object is expired. A local server
 * plays Google's token endpoint and Wallet API (tests/fixtures/google-wallet-server.ts).
 */
let ca: WalletCa;
let google: GoogleWalletServer;
let t: TestApp;
let dropScratch: (() => Promise<void>) | undefined;
const ISSUER = "3388000000022222222";

beforeAll(async () => {
  ca = makeWalletCa();
  google = await startGoogleWallet(ca);
  trustCertificateAuthority(ca.ca);
  const url = inject("testDatabaseUrl");
  let database: Database | undefined;
  if (url) {
    const scratch = await createScratchDatabase(url, "gwallet");
    dropScratch = scratch.drop;
    database = await openDatabase({ url: scratch.url, poolSize: 6 });
  }
  t = await createTestApp({ jobs: true, database, env: google.env });
});
afterAll(async () => {
  trustCertificateAuthority(undefined);
  await t?.close();
  await google?.close();
  await dropScratch?.();
  ca?.remove();
});

type SaveClaims = {
  typ: string;
  origins: string[];
  payload: {
    loyaltyClasses: Record<string, unknown>[];
    loyaltyObjects: (Record<string, unknown> & { loyaltyPoints: { balance: { string: string } } })[];
  };
};

/** A card at a shop without cooldown, its save link followed: the JWT's claims and the object's id. */
async function savedCard() {
  const card = await cardAtShop(t, { rules: { mode: "stamps", stampsGoal: 10, cooldownMinutes: 0, dailyCap: 50 } });
  const res = await card.client.request(`/api/wallet/cards/${card.cardId}/google`);
  expect(res.status).toBe(302);
  const location = res.headers.get("location") ?? "";
  expect(location.startsWith("https://pay.google.com/gp/v/save/")).toBe(true);
  const jwt = location.slice("https://pay.google.com/gp/v/save/".length);
  const objectId = `${ISSUER}.card-${card.cardId}`;
  return { ...card, jwt, objectId };
}

const parisDay = (ms: number) => localParts(new Date(ms), DEFAULT_TIMEZONE).date;

/** No wallet job waiting, running or to be retried: every update this test caused has been made. */
async function walletJobsIdle() {
  const { rows } = await t.deps.db.execute<{ n: number }>(
    sql`select count(*)::int as n from pgboss.job where name like 'wallet.%' and state in ('created', 'retry', 'active')
      and start_after <= now() + interval '5 seconds'`,
  );
  return rows[0]?.n === 0;
}

describe("Google Wallet", () => {
  it("the save link is a JWT signed RS256 by the service account, with the shop's class and the card's object", async () => {
    const { jwt, objectId, shop, client } = await savedCard();
    const { payload, protectedHeader } = await jwtVerify<SaveClaims>(jwt, google.publicKey, {
      issuer: google.clientEmail,
      audience: "google",
      algorithms: ["RS256"],
    });
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload.typ).toBe("savetowallet");
    expect(payload.origins).toEqual([new URL(t.env.APP_URL).origin]);
    const classId = `${ISSUER}.shop-${shop.id}`;
    expect(payload.payload.loyaltyClasses).toEqual([
      expect.objectContaining({
        id: classId,
        issuerName: "Boulangerie Pass",
        programName: "Carte de fidélité Boulangerie Pass",
        hexBackgroundColor: "#0f766e",
        programLogo: expect.objectContaining({
          sourceUri: { uri: expect.stringMatching(/^http:\/\/fidele\.test\/api\/shops\/[^/]+\/logo\?v=/) },
        }),
      }),
    ]);
    const personal = await (await client.request("/api/cards/personal-code")).json();
    expect(payload.payload.loyaltyObjects).toEqual([
      expect.objectContaining({
        id: objectId,
        classId,
        state: "ACTIVE",
        loyaltyPoints: { label: "Tampons", balance: { string: "1 tampon sur 10" } },
        barcode: { type: "QR_CODE", value: personal.personalCode.qr, alternateText: personal.personalCode.display },
        locations: [{ latitude: 45.764, longitude: 4.8357 }],
      }),
    ]);
    // Another key does not verify it.
    const { generateKeyPairSync } = await import("node:crypto");
    const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    await expect(jwtVerify(jwt, stranger)).rejects.toThrow();
  });

  it("a scan PATCHes the saved object once; the phone is notified at most 3 times a day", async () => {
    const { client, shop, objectId } = await savedCard();
    google.save(objectId);
    await scan(client, t.deps.db, shop.id);
    await eventually(() => google.patchesOf(objectId).length).toBe(1);
    await eventually(walletJobsIdle).toBe(true);
    expect(google.patchesOf(objectId)).toHaveLength(1);
    const [first] = google.patchesOf(objectId);
    expect(first!.body).toMatchObject({
      state: "ACTIVE",
      loyaltyPoints: { balance: { string: "2 tampons sur 10" } },
      notifyPreference: "NOTIFY_ON_UPDATE",
    });

    // Four more visits, one PATCH each: the first three of the day notify, then no more.
    for (let visit = 3; visit <= 6; visit++) {
      await scan(client, t.deps.db, shop.id);
      await eventually(() => google.patchesOf(objectId).length).toBe(visit - 1);
    }
    const patches = google.patchesOf(objectId);
    expect(patches.map((p) => (p.body.loyaltyPoints as { balance: { string: string } }).balance.string)).toEqual([
      "2 tampons sur 10",
      "3 tampons sur 10",
      "4 tampons sur 10",
      "5 tampons sur 10",
      "6 tampons sur 10",
    ]);
    const notified = patches.map((p) => p.body.notifyPreference ?? null);
    // The count is per day in Paris: a run across its midnight starts a new day's three mid-way.
    if (parisDay(patches[0]!.at) === parisDay(patches.at(-1)!.at))
      expect(notified).toEqual(["NOTIFY_ON_UPDATE", "NOTIFY_ON_UPDATE", "NOTIFY_ON_UPDATE", null, null]);
    else expect(notified.filter((n) => n === "NOTIFY_ON_UPDATE").length).toBeLessThanOrEqual(6);
  });

  it("the shop's class is PATCHed once after the shop changes its name, not at every card's update", async () => {
    const { client, shop, objectId, owner } = await savedCard();
    const classId = `${ISSUER}.shop-${shop.id}`;
    google.save(objectId, classId);
    await scan(client, t.deps.db, shop.id);
    await eventually(() => google.patchesOf(objectId).length).toBe(1);
    await eventually(walletJobsIdle).toBe(true);
    // The first update sends the class once (nothing was known of it); a second visit does not again.
    expect(google.patchesOf(classId)).toHaveLength(1);
    await scan(client, t.deps.db, shop.id);
    await eventually(() => google.patchesOf(objectId).length).toBe(2);
    await eventually(walletJobsIdle).toBe(true);
    expect(google.patchesOf(classId)).toHaveLength(1);

    // The owner renames the shop: the class is PATCHed with the new name, once.
    const renamed = `Boulangerie Renommée ${shop.id.slice(0, 4)}`;
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/page`, {
      method: "PUT",
      json: {
        name: renamed,
        category: "boulangerie",
        address: "1 place du Marché",
        city: "Lyon",
        postalCode: "69002",
        phone: "04 78 11 22 33",
        logo: `data:image/png;base64,${RED_PIXEL_PNG}`,
        cover: null,
        links: {},
      },
    });
    expect(res.status).toBe(200);
    await eventually(() => google.patchesOf(classId).length).toBe(2);
    await eventually(walletJobsIdle).toBe(true);
    expect(google.patchesOf(classId)[1]!.body).toMatchObject({ id: classId, issuerName: renamed });
    await scan(client, t.deps.db, shop.id);
    await eventually(() => google.patchesOf(objectId).length).toBeGreaterThanOrEqual(4);
    await eventually(walletJobsIdle).toBe(true);
    expect(google.patchesOf(classId)).toHaveLength(2);
  });

  it("Google's quota error is waited out, then the object is updated", async () => {
    const { client, shop, objectId } = await savedCard();
    google.save(objectId);
    google.exhaustQuota(objectId, 1);
    await scan(client, t.deps.db, shop.id);
    await eventually(() => google.patchesOf(objectId).length).toBe(1);
    expect(google.patchesOf(objectId)[0]!.body).toMatchObject({
      loyaltyPoints: { balance: { string: "2 tampons sur 10" } },
    });
  });

  it("a card not saved to Google Wallet is not PATCHed again and again", async () => {
    const { client, shop, objectId, cardId } = await savedCard();
    await scan(client, t.deps.db, shop.id);
    await eventually(async () => {
      const { rows } = await t.deps.db.execute<{ synced: boolean }>(
        sql`select google_synced_hash = content_hash as synced from wallet_passes where card_id = ${cardId}`,
      );
      return rows[0]?.synced;
    }).toBe(true);
    expect(google.patchesOf(objectId)).toHaveLength(0);
  });

  it("erasing the account expires the card's Google object", async () => {
    const { user, objectId } = await savedCard();
    google.save(objectId);
    await eraseAccount(t.deps, user.id, { purge: true });
    await eventually(() => google.patchesOf(objectId).map((p) => p.body.state)).toEqual(["EXPIRED"]);
    expect(google.patchesOf(objectId)[0]!.body.barcode).toBeUndefined();
  });
});
