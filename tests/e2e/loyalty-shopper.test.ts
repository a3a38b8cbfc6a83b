import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WeeklyHours } from "../../src/domain/loyalty/hours.ts";
import { importCodeKey, rotatingToken, scanUrl, stepEndsAt, timeStep } from "../../src/domain/loyalty/scan-code.ts";
import { createShop, type CreateShopInput } from "../../src/server/db/factories.ts";
import { cards, doublePointsPeriods, scanClaims, scans, shops, user } from "../../src/server/db/schema/index.ts";
import { eventually, expectAccessible, snap, soleHeading, type Stack, startStack, uniqueEmail } from "../setup/e2e.ts";
import { sleep } from "../setup/timing.ts";

/** Like snap(), the whole page: for long screens. */
import { linkIn } from "../setup/smtp.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const tag = () => randomUUID().slice(0, 6);

/**
 * JavaScript of /boutique/{scanUid} for a signed-in shopper, gzip. Measured 137 kB (the shell: React, router,
 * query ~125 kB; the page ~12 kB, without zod); the margin is for the shell's growth, never for the scanner.
 */
const JS_BUDGET_GZIP = 150_000;

const ALWAYS_OPEN: WeeklyHours = Array.from({ length: 7 }, () => [{ open: "00:00", close: "24:00" }]);
const SHOP_HOURS: WeeklyHours = [
  [{ open: "09:00", close: "12:30" }, { open: "14:00", close: "19:00" }],
  [{ open: "09:00", close: "19:00" }],
  [{ open: "09:00", close: "19:00" }],
  [{ open: "09:00", close: "19:00" }],
  [{ open: "09:00", close: "19:00" }],
  [{ open: "08:00", close: "13:00" }],
  [],
];

async function newOwner() {
  return stack.createUser({ firstName: "Odile", lastName: "Marchand" });
}

async function newShop(input: Omit<CreateShopInput, "ownerId"> & { ownerId?: string } = {}) {
  const ownerId = input.ownerId ?? (await newOwner()).id;
  return createShop(stack.deps, { ...input, ownerId });
}

/** The URL the counter screen shows now (or `ageSteps` × 30 s ago), computed with the domain's own function. */
async function counterUrl(shopId: string, ageSteps = 0) {
  const [row] = await stack.deps.db.select({ scanUid: shops.scanUid, codeSecret: shops.codeSecret }).from(shops).where(eq(shops.id, shopId));
  const key = await importCodeKey(row!.codeSecret);
  const step = timeStep(Date.now()) - ageSteps;
  return scanUrl(stack.baseUrl, { scanUid: row!.scanUid, token: await rotatingToken(key, row!.scanUid, step), poster: null });
}

/** Waits until the clock is between `from` and `to` seconds into a 30 s step. */
async function intoStep(from: number, to: number) {
  const now = (Date.now() / 1000) % 30;
  if (now < from || now > to) await new Promise((resolve) => setTimeout(resolve, (((from - now + 30) % 30) + 0.2) * 1000));
}

/** Resolves at `ms` (epoch), to let the counter's code step pass. */
const sleepUntil = (ms: number) => sleep(Math.max(0, ms - Date.now()));

async function signedInContext(extra: Parameters<Stack["newContext"]>[0] = {}) {
  const shopper = await stack.createUser({ email: uniqueEmail("client") });
  const context = await stack.newContext(extra);
  await stack.signIn(context, shopper.email, shopper.password);
  return { shopper, context };
}

async function scansOf(userId: string) {
  return stack.deps.db.select({ outcome: scans.outcome, delta: scans.delta, idempotencyKey: scans.idempotencyKey, deviceId: scans.deviceId }).from(scans).where(eq(scans.userId, userId)).orderBy(scans.createdAt);
}

/** Every request a page makes, to check what it loaded. */
function recordRequests(target: Page | BrowserContext) {
  const urls: string[] = [];
  target.on("request", (request) => {
    urls.push(request.url());
  });
  return urls;
}

describe("scanning a shop's code", () => {
  it("signs a new shopper up from the QR URL, credits the visit once even after the code's 60 s, and shows the card in /cartes-de-fidelite", async () => {
    const shop = await newShop({ name: `Boulangerie du Marché ${tag()}`, weeklyHours: SHOP_HOURS });
    const context = await stack.newContext();
    const page = await context.newPage();
    const email = uniqueEmail("nouveau");

    // The code of the previous step, opened 5–18 s into this one: still valid for 12 s at least, and expired
    // (60 s old) 12–25 s later, which the test waits for before the sign-up ends. Real people take longer than
    // that to confirm an e-mail; the claim got while the code was valid keeps their visit good.
    await intoStep(5, 18);
    const tokenStep = timeStep(Date.now()) - 1;
    const url = await counterUrl(shop.id, 1);
    const path = url.slice(stack.baseUrl.length);
    await page.goto(url);

    // Signed out: straight to /scanner-auth, keeping the code's URL, with the claim kept for it.
    await page.waitForURL((u) => u.pathname === "/scanner-auth");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe(path);
    const claims = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("fidele:scan-claim:")));
    expect(await claims()).toHaveLength(1);
    await eventually(() => soleHeading(page)).toBe(`Votre passage chez ${shop.name}`);
    const keyBefore = await page.evaluate(() => Object.entries(sessionStorage).find(([k]) => k.startsWith("fidele:scan-attempt:"))?.[1]);
    expect(keyBefore).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    await expectAccessible(page);
    await snap(page, "loyalty-scanner-auth");
    expect(await page.getByRole("link", { name: "J'ai déjà un compte" }).getAttribute("href")).toBe(`/login?redirect=${encodeURIComponent(path)}`);

    // Sign-up, e-mail confirmation, profile: then back to the code's page.
    await page.getByRole("link", { name: "Créer mon compte" }).click();
    await page.waitForURL((u) => u.pathname === "/signup" && u.searchParams.get("redirect") === path);
    await page.getByLabel("Adresse e-mail").fill(email);
    await page.getByLabel("Mot de passe", { exact: true }).fill("un-mot-de-passe-solide");
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await eventually(() => soleHeading(page)).toBe("Vérifiez vos e-mails");
    const mail = await stack.smtp.waitForMail(email, (m) => m.subject.includes("Confirmez"));
    await page.goto(linkIn(mail, "verify-email"));
    await page.waitForURL((u) => u.pathname === "/confirm");
    await page.getByRole("link", { name: "Compléter mon profil" }).click();
    await page.waitForURL((u) => u.pathname === "/create-profil");
    await page.getByLabel("Prénom").fill("Léa");
    await page.getByLabel("Nom", { exact: true }).fill("Girard");
    // The code is now more than 60 s old: without the claim, this visit would be refused as expired.
    await sleepUntil(stepEndsAt(tokenStep + 1) + 500);
    await page.getByRole("button", { name: "Enregistrer et continuer" }).click();

    // Back on /boutique/…: credited at once, with the same idempotency key.
    await page.waitForURL((u) => u.pathname + u.search === path);
    await eventually(() => soleHeading(page)).toBe("Passage validé !");
    await eventually(() => page.getByText("+1 tampon", { exact: true }).isVisible()).toBe(true);
    await eventually(() => page.getByText(`1 tampon ajouté chez ${shop.name}. Merci de votre visite !`).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "loyalty-scan-accepted");

    const [account] = await stack.deps.db.select({ id: user.id }).from(user).where(eq(user.email, email));
    const recorded = await scansOf(account!.id);
    expect(recorded.map((s) => [s.outcome, s.delta, s.idempotencyKey])).toEqual([["accepted", 1, keyBefore]]);
    const [credited] = await stack.deps.db.select({ at: scans.createdAt }).from(scans).where(eq(scans.userId, account!.id));
    expect(timeStep(credited!.at.getTime()) - tokenStep).toBeGreaterThanOrEqual(2);
    expect(await stack.deps.db.select({ key: scanClaims.idempotencyKey }).from(scanClaims).where(eq(scanClaims.userId, account!.id))).toEqual([{ key: keyBefore }]);
    expect(await claims()).toEqual([]);
    expect(recorded[0]!.deviceId).toBe(await page.evaluate(() => localStorage.getItem("fidele:device-id")));
    // The attempt is over: its key is gone.
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith("fidele:scan-attempt:")))).toEqual([]);

    // A reload shows the same answer and credits nothing more.
    await page.reload();
    await eventually(() => soleHeading(page)).toBe("Passage validé !");
    expect((await scansOf(account!.id)).length).toBe(1);

    // The card, in the shop's design.
    await page.getByRole("link", { name: "Mes cartes" }).click();
    await page.waitForURL((u) => u.pathname === "/cartes-de-fidelite");
    await eventually(() => soleHeading(page)).toBe("Mes cartes");
    const card = page.getByRole("listitem").filter({ hasText: shop.name });
    await eventually(() => card.isVisible()).toBe(true);
    expect(await card.textContent()).toContain("Plus que 9 tampons avant votre récompense.");
    expect(await card.textContent()).toContain("1 passage");
    await expectAccessible(page);
    await snap(page, "loyalty-cards");

    // Readable without network once seen: the saved copy shows when GET /api/cards fails.
    const offline = await context.newPage();
    await offline.route("**/api/cards", (route) => route.abort("internetdisconnected"));
    await offline.goto("/cartes-de-fidelite");
    await eventually(() => offline.getByRole("heading", { name: shop.name }).isVisible()).toBe(true);
    await eventually(() => offline.getByText("Hors connexion : soldes vu à ", { exact: false }).isVisible()).toBe(true);
    await snap(offline, "loyalty-cards-offline");
    await context.close();
  });

  it("refuses a second scan inside the cooldown and a code older than 60 s, in French, and never loads the scanner there", async () => {
    const shop = await newShop({ name: `Café des Arts ${tag()}` });
    const { shopper, context } = await signedInContext();
    const first = await context.newPage();
    const requests = recordRequests(context);
    const scripts: Promise<number>[] = [];
    first.on("response", (response) => {
      if (new URL(response.url()).pathname.endsWith(".js")) scripts.push(response.body().then((b) => gzipSync(b).length));
    });

    await first.goto(await counterUrl(shop.id));
    await eventually(() => soleHeading(first)).toBe("Passage validé !");
    await expectAccessible(first);
    // What a phone downloads to credit a visit: the shell, the page, no form library, no scanner.
    await first.waitForLoadState("networkidle");
    const scriptBytes = (await Promise.all(scripts)).reduce((sum, n) => sum + n, 0);
    expect(scriptBytes).toBeLessThan(JS_BUDGET_GZIP);

    // The counter again, scanned by the phone's camera (a new tab), a minute later at most: inside the 4 h cooldown.
    const page = await context.newPage();
    await page.goto(await counterUrl(shop.id));
    await eventually(() => soleHeading(page)).toBe("Passage déjà crédité");
    const refusal = (await page.getByRole("status").first().textContent()) ?? "";
    // 4 h later is today or, in the evening (Paris time), tomorrow: the message says which.
    expect(refusal).toContain(`Votre passage chez ${shop.name} a déjà été crédité récemment. Prochain passage possible `);
    expect(refusal).toMatch(/Prochain passage possible (aujourd'hui|demain) à \d{1,2} h \d{2}\.$/);
    await eventually(() => page.getByText("Plus que 9 tampons avant votre récompense.").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "loyalty-scan-cooldown");

    // A code of two steps ago (60 to 90 s old): refused as expired.
    await page.goto(await counterUrl(shop.id, 2));
    await eventually(() => soleHeading(page)).toBe("Ce code a expiré");
    await eventually(() =>
      page.getByText("Ce code a expiré : il change toutes les 30 secondes. Scannez le code affiché en ce moment au comptoir.").isVisible(),
    ).toBe(true);
    expect(await page.getByRole("link", { name: "Scanner à nouveau" }).getAttribute("href")).toBe("/scanner");
    await expectAccessible(page);
    await snap(page, "loyalty-scan-stale");

    expect((await scansOf(shopper.id)).map((s) => [s.outcome, s.delta])).toEqual([
      ["accepted", 1],
      ["cooldown", 0],
      ["stale_code", 0],
    ]);
    const [card] = await stack.deps.db.select({ balance: cards.balance }).from(cards).where(and(eq(cards.shopId, shop.id), eq(cards.userId, shopper.id)));
    expect(card?.balance).toBe(1);

    // The scanner's code and wasm belong to /scanner only.
    expect(requests.some((u) => u.includes("/assets/scan-page-"))).toBe(true);
    expect(requests.filter((u) => /zxing|\.wasm|qr-detector|scanner-page/.test(u))).toEqual([]);
    await context.close();
  });

  it("explains an unreadable code without calling the API", async () => {
    const { context } = await signedInContext();
    const page = await context.newPage();
    const requests = recordRequests(page);
    await page.goto("/boutique/AbCdEfGh1234?x=1");
    await eventually(() => soleHeading(page)).toBe("Code non reconnu");
    await eventually(() => page.getByText("Ce code est incomplet : scannez le code affiché au comptoir.").isVisible()).toBe(true);
    expect(requests.filter((u) => u.includes("/api/cards/scan"))).toEqual([]);
    await context.close();
  });
});

/** The shop rows of a list page. */
const shopLinks = (page: Page) => page.locator('main li a[href^="/shop/"]');

describe("finding shops", () => {
  it("lists shops with a debounced search by name or city, category chips and « Voir plus »", async () => {
    const word = `Zorg${tag()}`;
    const ownerId = (await newOwner()).id;
    for (let i = 1; i <= 21; i++) await newShop({ ownerId, name: `${word} Fournil ${String(i).padStart(2, "0")}`, category: "boulangerie" });
    await newShop({ ownerId, name: `${word} Fleurs`, category: "fleuriste", weeklyHours: ALWAYS_OPEN });
    const inTown = await newShop({ ownerId, name: "Chez Anna", category: "cafe", city: `Ville${word}` });

    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/boutiques");
    await eventually(() => soleHeading(page)).toBe("Boutiques");
    const search = page.getByRole("searchbox", { name: "Rechercher une boutique par nom, ville ou catégorie" });
    await search.pressSequentially(word.toLowerCase(), { delay: 20 });
    await page.waitForURL((u) => u.searchParams.get("q") === word.toLowerCase());
    await eventually(() => shopLinks(page).count()).toBe(20);
    await expectAccessible(page);
    await snap(page, "loyalty-shops-search");
    await page.getByRole("button", { name: "Voir plus" }).click();
    // 21 + 1 by name, and one whose city carries the word.
    await eventually(() => shopLinks(page).count()).toBe(23);
    expect(await page.getByRole("button", { name: "Voir plus" }).count()).toBe(0);

    // A category chip narrows the list; it is kept in the URL.
    await page.getByRole("button", { name: "Fleuriste" }).click();
    await page.waitForURL((u) => u.searchParams.get("categorie") === "fleuriste");
    await eventually(() => shopLinks(page).allTextContents()).toEqual([expect.stringContaining(`${word} Fleurs`)]);
    expect(await page.getByRole("button", { name: "Fleuriste" }).getAttribute("aria-pressed")).toBe("true");
    await snap(page, "loyalty-shops-category");
    await page.getByRole("button", { name: "Toutes" }).click();

    // By city.
    await search.fill(`ville${word}`);
    await eventually(() => shopLinks(page).allTextContents()).toEqual([expect.stringContaining("Chez Anna")]);
    expect(await shopLinks(page).first().getAttribute("href")).toBe(`/shop/${inTown.slug}`);

    await search.fill("aucune-boutique-de-ce-nom");
    await eventually(() => page.getByText("Aucune boutique ne correspond à « aucune-boutique-de-ce-nom ».").isVisible()).toBe(true);
    await snap(page, "loyalty-shops-empty");

    // /shop without a slug goes to the list.
    await page.goto("/shop");
    await page.waitForURL((u) => u.pathname === "/boutiques");
    await context.close();
  });

  it("sorts nearby shops by distance with the shopper's consent, and by name without it", async () => {
    const ownerId = (await newOwner()).id;
    const near = await newShop({ ownerId, name: `Primeur Bellecour ${tag()}`, category: "epicerie", lat: 45.7578, lng: 4.832, weeklyHours: ALWAYS_OPEN });
    const farther = await newShop({ ownerId, name: `Cave Croix-Rousse ${tag()}`, category: "fromagerie", lat: 45.7769, lng: 4.8277 });
    const paris = await newShop({ ownerId, name: `Librairie Paris ${tag()}`, category: "librairie", city: "Paris", lat: 48.8566, lng: 2.3522 });

    // Location allowed: sorted by distance, within 30 km.
    const allowed = await stack.newContext({ geolocation: { latitude: 45.7605, longitude: 4.8335 }, permissions: ["geolocation"] });
    const page = await allowed.newPage();
    await page.goto("/boutique-a-proximite");
    await eventually(() => page.getByText("Classées par distance, dans un rayon de 30 km.").isVisible()).toBe(true);
    const hrefs = await shopLinks(page).evaluateAll((els) => els.map((el) => el.getAttribute("href")));
    expect(hrefs.indexOf(`/shop/${near.slug}`)).toBeGreaterThanOrEqual(0);
    expect(hrefs.indexOf(`/shop/${near.slug}`)).toBeLessThan(hrefs.indexOf(`/shop/${farther.slug}`));
    expect(hrefs).not.toContain(`/shop/${paris.slug}`);
    expect(await shopLinks(page).filter({ hasText: near.name }).textContent()).toMatch(/à [1-9]\d0 m/);
    await expectAccessible(page);
    await snap(page, "loyalty-nearby-located");
    await allowed.close();

    // No location: the page explains before asking, and lists shops by name meanwhile.
    const refused = await stack.newContext();
    const other = await refused.newPage();
    await other.goto("/boutique-a-proximite");
    await eventually(() => other.getByRole("heading", { name: "Trier par distance ?" }).isVisible()).toBe(true);
    await eventually(() => other.getByText("Sans votre position, les boutiques sont classées par nom.").isVisible()).toBe(true);
    await eventually(() => shopLinks(other).filter({ hasText: paris.name }).count()).toBe(1);
    await expectAccessible(other);
    await snap(other, "loyalty-nearby-ask");
    await other.getByRole("button", { name: "Utiliser ma position" }).click();
    await eventually(() => other.getByText("Vous n'avez pas autorisé la localisation", { exact: false }).isVisible()).toBe(true);
    await snap(other, "loyalty-nearby-denied");
    await refused.close();
  });
});

describe("a shop's page", () => {
  it("shows hours with « Ouvert maintenant », the rules, double points, contact links, and the card to sign in for", async () => {
    const shop = await newShop({ name: `Fromagerie Lou ${tag()}`, category: "fromagerie", weeklyHours: ALWAYS_OPEN, phone: "04 78 12 34 56" });
    await stack.deps.db
      .update(shops)
      .set({ description: "Fromages affinés sur place, vins nature.", links: { website: "https://fromagerie.example", instagram: null, facebook: null, tiktok: null } })
      .where(eq(shops.id, shop.id));
    await stack.deps.db.insert(doublePointsPeriods).values({ shopId: shop.id, label: "Semaine du fromage", multiplier: 2, weekdays: [] });

    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto(`/shop/${shop.slug}`);
    await eventually(() => soleHeading(page)).toBe(shop.name);
    await eventually(() => page.getByText("Ouvert maintenant", { exact: false }).first().isVisible()).toBe(true);
    expect(await page.getByText("Tampons ×2 en ce moment !").isVisible()).toBe(true);
    expect(await page.getByText("Un tampon à chaque passage : la carte est complète à 10 tampons.").isVisible()).toBe(true);
    expect(await page.getByRole("table").getByRole("row").count()).toBe(7);
    expect(await page.getByRole("link", { name: /Ouvrir dans une application de cartes/ }).getAttribute("href")).toMatch(/^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/);
    expect(await page.getByRole("link", { name: "04 78 12 34 56" }).getAttribute("href")).toBe("tel:+33478123456");
    expect(await page.getByRole("link", { name: "Site web" }).getAttribute("href")).toBe("https://fromagerie.example");
    expect(await page.getByRole("link", { name: "Se connecter pour voir ma carte" }).getAttribute("href")).toBe(`/login?redirect=${encodeURIComponent(`/shop/${shop.slug}`)}`);
    await expectAccessible(page);
    await snap(page, "loyalty-shop-page");
    await snap(page, "loyalty-shop-page-full", { fullPage: true });

    // A shop closed today says so.
    const today = new Intl.DateTimeFormat("en-GB", { weekday: "short", timeZone: "Europe/Paris" }).format(new Date());
    const todayIndex = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(today);
    const closedHours: WeeklyHours = Array.from({ length: 7 }, (_, i) => (i === (todayIndex + 3) % 7 ? [{ open: "09:00", close: "18:00" }] : []));
    const closed = await newShop({ name: `Librairie Close ${tag()}`, weeklyHours: closedHours });
    await page.goto(`/shop/${closed.slug}`);
    await eventually(() => page.getByText("Fermé · ouvre", { exact: false }).first().isVisible()).toBe(true);

    // An unknown slug is the app's 404.
    const response = await page.goto("/shop/cette-boutique-n-existe-pas");
    expect(response?.status()).toBe(200);
    await eventually(() => page.locator("main h1").textContent()).toBe("Page introuvable");
    expect(await page.getByText("Page not found: /shop/cette-boutique-n-existe-pas", { exact: true }).count()).toBe(1);
    await context.close();
  });
});

describe("reviews", () => {
  it("lets a customer rate and comment a shop once, edit it, and says no reward is given; a non-customer cannot", async () => {
    const shop = await newShop({ name: `Salon Coupe ${tag()}`, category: "coiffure" });
    const { context } = await signedInContext();
    const page = await context.newPage();
    await page.goto(await counterUrl(shop.id));
    await eventually(() => soleHeading(page)).toBe("Passage validé !");

    await page.goto("/review");
    await eventually(() => soleHeading(page)).toBe("Donner mon avis");
    expect(await page.getByText("aucun point, aucune récompense ni aucun avantage n'est jamais offert en échange d'un avis", { exact: false }).isVisible()).toBe(true);
    await page.getByRole("link", { name: new RegExp(shop.name) }).click();
    await page.waitForURL((u) => u.searchParams.get("shop") === shop.slug);
    await page.getByRole("button", { name: "Publier mon avis" }).click();
    await eventually(() => page.getByText("Donnez une note de 1 à 5.").isVisible()).toBe(true);
    await page.locator("label").filter({ hasText: "4 étoiles sur 5" }).click();
    await page.getByLabel("Votre commentaire (facultatif)").fill("Coupe soignée, accueil chaleureux.");
    await expectAccessible(page);
    await snap(page, "loyalty-review-form");
    await page.getByRole("button", { name: "Publier mon avis" }).click();
    await eventually(() => page.getByText("Merci ! Votre avis est publié.").isVisible()).toBe(true);
    await snap(page, "loyalty-review-saved");

    // Edit: the same review, not a second one.
    await page.locator("label").filter({ hasText: "5 étoiles sur 5" }).click();
    await page.getByRole("button", { name: "Mettre à jour mon avis" }).click();
    await eventually(() => page.getByText("Votre avis est mis à jour.").isVisible()).toBe(true);

    await page.goto(`/shop/${shop.slug}`);
    const reviews = page.getByRole("region", { name: "Avis (1)" });
    await eventually(() => reviews.isVisible()).toBe(true);
    // The list of reviews is its own request: it may arrive after the section's heading.
    await eventually(async () => (await reviews.textContent()) ?? "").toContain("Camille M.");
    expect(await reviews.textContent()).toContain("Coupe soignée, accueil chaleureux.");
    expect(await reviews.getByRole("img", { name: "5 sur 5" }).count()).toBeGreaterThan(0);
    expect(await page.getByRole("link", { name: "Modifier mon avis" }).getAttribute("href")).toBe(`/review?shop=${shop.slug}`);
    await expectAccessible(page);
    await snap(page, "loyalty-shop-page-signed-in", { fullPage: true });
    await context.close();

    // Someone who never came: no form, a plain explanation.
    const stranger = await signedInContext();
    const other = await stranger.context.newPage();
    await other.goto(`/review?shop=${shop.slug}`);
    await eventually(() => other.getByText(`Vous pourrez donner votre avis sur ${shop.name} après votre premier passage crédité.`).isVisible()).toBe(true);
    expect(await other.getByRole("button", { name: "Publier mon avis" }).count()).toBe(0);
    await snap(other, "loyalty-review-not-customer");
    await stranger.context.close();
  });
});
