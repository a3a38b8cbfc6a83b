import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWalletCa, verifyPkpass, type WalletCa } from "../fixtures/wallet-ca.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, newKey, personalCodeOf, shopWithOwner, signedIn } from "./shops-helpers.ts";
import { cardAtShop, downloadPass, RED_PIXEL_PNG } from "./wallet-helpers.ts";

/**
 * Issue 26, acceptance row 1: a pass downloaded from the card page verifies (signature, manifest, every image) and
 * holds the balance, the next reward, the shop's location and the personal code as its barcode. Signed with a
 * throw-away CA standing in for Apple's WWDR (tests/fixtures/wallet-ca.ts), verified offline by openssl.
 */
let ca: WalletCa;
let t: TestApp;
let off: TestApp;

beforeAll(async () => {
  ca = makeWalletCa();
  t = await createTestApp({ env: ca.appleEnv });
  off = await createTestApp({ database: t.deps.database, migrated: true });
});
afterAll(async () => {
  // `off` shares t's database: close only its job engine.
  await off?.deps.jobs.stop();
  await t?.close();
  ca?.remove();
});

const cardWithPass = () => cardAtShop(t);

describe("the Apple pass of a card", () => {
  it("verifies offline and holds the balance, next reward, location and personal code", async () => {
    const { client, cardId } = await cardWithPass();
    const { res, files, pass } = await downloadPass(client, cardId);
    expect(res.headers.get("content-type")).toBe("application/vnd.apple.pkpass");
    expect(res.headers.get("last-modified")).toBeTruthy();

    const { manifest, signerSubject } = verifyPkpass(files, ca.caFile);
    expect(signerSubject).toContain(`Pass Type ID: ${ca.passTypeId}`);
    // The check is a real one: a manifest changed by one byte no longer verifies.
    const tampered = Buffer.from(files["manifest.json"]!);
    tampered[tampered.length - 2]! ^= 1;
    expect(() => verifyPkpass({ ...files, "manifest.json": tampered }, ca.caFile)).toThrow();
    // Every file but the manifest and the signature is in the manifest with its SHA-1, and nothing else is.
    const listed = Object.keys(files).filter((f) => f !== "manifest.json" && f !== "signature");
    expect(Object.keys(manifest).sort()).toEqual(listed.sort());
    for (const name of listed) {
      expect(manifest[name], name).toBe(createHash("sha1").update(files[name]!).digest("hex"));
    }
    expect(listed).toEqual(expect.arrayContaining(["pass.json", "icon.png", "icon@2x.png", "logo.png", "logo@2x.png"]));
    expect(Buffer.from(files["logo.png"]!).toString("base64")).toBe(RED_PIXEL_PNG);

    const personal = await (await client.request("/api/cards/personal-code")).json();
    expect(pass).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: ca.passTypeId,
      teamIdentifier: ca.teamId,
      serialNumber: cardId,
      webServiceURL: `${t.env.APP_URL}/api/wallet/apple`,
      organizationName: "Boulangerie Pass",
      logoText: "Boulangerie Pass",
      barcodes: [
        {
          format: "PKBarcodeFormatQR",
          message: personal.personalCode.qr,
          altText: personal.personalCode.display,
          messageEncoding: "iso-8859-1",
        },
      ],
      locations: [{ latitude: 45.764, longitude: 4.8357 }],
    });
    expect(pass.authenticationToken.length).toBeGreaterThanOrEqual(16);
    expect(pass.storeCard.primaryFields[0]).toMatchObject({
      key: "balance",
      value: "1 tampon sur 10",
      changeMessage: "Votre solde : %@",
    });
    expect(pass.storeCard.secondaryFields[0]?.value).toBe("Prochaine récompense : Croissant offert (encore 4 tampons)");
    expect(pass.storeCard.backFields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: "Ma carte client", value: personal.personalCode.display }),
      ]),
    );
    expect(pass.voided).toBeUndefined();
  });

  it("holds the holder's bundles and gift cards at this shop: the soonest to end on the front, each with its end on the back", async () => {
    const { shop, owner, client, cardId } = await cardWithPass();
    const customerCode = await personalCodeOf(client);
    const sell = async (by: Client, shopId: string, product: Record<string, unknown>) => {
      const base = `/api/backoffice/shops/${shopId}`;
      const made = (await (await by.request(`${base}/prepaid/products`, { json: product })).json()) as {
        product: { id: string };
      };
      const sale = await by.request(`${base}/prepaid/sales`, {
        json: {
          productId: made.product.id,
          customerCode,
          paymentMethod: "card",
          idempotencyKey: newKey(),
        },
      });
      expect(sale.status).toBe(201);
      return ((await sale.json()) as { holding: { code: string } }).holding.code;
    };
    const gift = { kind: "euros", title: "Carte cadeau", quantity: 3000, priceCents: 3000, validityMonths: 12 };
    await sell(owner.client, shop.id, gift);
    const carnet = await sell(owner.client, shop.id, {
      kind: "units",
      title: "Carnet de 10 baguettes",
      quantity: 10,
      priceCents: 1000,
      validityMonths: 6,
    });
    // Another shop's gift card is that shop's pass's, not this one's.
    const other = await shopWithOwner(t);
    await sell(other.owner.client, other.shop.id, { ...gift, title: "Ailleurs" });

    const plain = (v: string | undefined) => v?.replace(/\s/g, " ");
    const { pass } = await downloadPass(client, cardId);
    expect(pass.storeCard.auxiliaryFields.map((f) => [f.label, plain(f.value)])).toEqual([
      ["Boutique", expect.any(String)],
      ["Carnet de 10 baguettes", "10 unités"],
    ]);
    const back = pass.storeCard.backFields.map((f) => [f.label, plain(f.value)]);
    expect(back).toEqual(
      expect.arrayContaining([
        ["Carnet de 10 baguettes", expect.stringMatching(/^10 unités, valable jusqu'au \d{1,2} \S+ \d{4} inclus$/)],
        ["Carte cadeau", expect.stringMatching(/^30,00 €, valable jusqu'au \d{1,2} \S+ \d{4} inclus$/)],
      ]),
    );
    expect(back.some(([label]) => label === "Ailleurs")).toBe(false);

    // The bundle used up: it leaves the pass, the gift card comes to the front.
    const used = await owner.client.request(`/api/backoffice/shops/${shop.id}/prepaid/uses`, {
      json: { code: carnet, amount: 10, idempotencyKey: newKey() },
    });
    expect(used.status).toBe(201);
    const after = (await downloadPass(client, cardId)).pass;
    expect(after.storeCard.auxiliaryFields.map((f) => [f.label, plain(f.value)])).toEqual([
      ["Boutique", expect.any(String)],
      ["Carte cadeau", "30,00 €"],
    ]);
    expect(after.storeCard.backFields.some((f) => f.label === "Carnet de 10 baguettes")).toBe(false);
  });

  it("a WebP logo reaches the pass through the PNG the owner's browser drew; a new logo without one drops it; a fake PNG is refused", async () => {
    const { shop, owner, client, cardId } = await cardWithPass();
    const page = (logo: string | null, walletLogo?: string | null) =>
      owner.client.request(`/api/backoffice/shops/${shop.id}/page`, {
        method: "PUT",
        json: {
          name: "Boulangerie Pass",
          category: "boulangerie",
          address: "1 place du Test",
          city: "Lyon",
          postalCode: "69002",
          phone: "04 78 11 22 33",
          logo,
          cover: null,
          links: {},
          ...(walletLogo === undefined ? {} : { walletLogo }),
        },
      });
    // A WebP logo (Wallet takes PNG only) and its PNG.
    const webp = "data:image/webp;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==";
    const png = `data:image/png;base64,${RED_PIXEL_PNG}`;
    expect((await page(webp, png)).status).toBe(200);
    const { files } = await downloadPass(client, cardId);
    expect(Buffer.from(files["logo.png"]!).toString("base64")).toBe(RED_PIXEL_PNG);
    // Saved again with the same logo and no PNG: the PNG stays.
    expect((await page(webp)).status).toBe(200);
    expect(Object.keys((await downloadPass(client, cardId)).files)).toContain("logo.png");
    // Another logo with no PNG: the old PNG would be a stale logo, so it goes (the pass shows the name).
    const other = "data:image/webp;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAB==";
    expect((await page(other)).status).toBe(200);
    expect(Object.keys((await downloadPass(client, cardId)).files)).not.toContain("logo.png");
    // Bytes that are not a PNG under a PNG label.
    const fake = await page(webp, "data:image/png;base64,UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==");
    expect(fake.status).toBe(400);
    expect(((await fake.json()) as { fields: Record<string, string> }).fields.walletLogo).toBe(
      "Logo du portefeuille : image PNG attendue.",
    );
  });

  it("is the holder's only: another person's card is not found, and signed out is 401", async () => {
    const { cardId } = await cardWithPass();
    const other = await signedIn(t);
    expect((await other.client.request(`/api/wallet/cards/${cardId}/apple.pkpass`)).status).toBe(404);
    expect((await t.client().request(`/api/wallet/cards/${cardId}/apple.pkpass`)).status).toBe(401);
  });

  it("says which wallets are offered; unconfigured, none, and the download is a plain 404", async () => {
    expect(await (await t.request("/api/wallet/status")).json()).toEqual({ apple: true, google: false });
    expect(await (await off.request("/api/wallet/status")).json()).toEqual({ apple: false, google: false });
    const { cardId, user } = await cardWithPass();
    const mine = off.client();
    // The same person on the unconfigured app: the session cookie is the same database's.
    for (const [k, v] of (await signedInAs(user.id)).jar) mine.jar.set(k, v);
    const res = await mine.request(`/api/wallet/cards/${cardId}/apple.pkpass`);
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe("Apple Wallet n'est pas proposé sur ce service.");
  });
});

/** A jar signed in as `userId` on the unconfigured app (its own SECRET signs the cookie). */
async function signedInAs(userId: string) {
  const { createHmac } = await import("node:crypto");
  const ctx = await off.deps.auth.$context;
  const session = await ctx.internalAdapter.createSession(userId);
  const signature = createHmac("sha256", off.env.SECRET).update(session.token).digest("base64");
  return { jar: new Map([["fidele.session_token", encodeURIComponent(`${session.token}.${signature}`)]]) };
}
