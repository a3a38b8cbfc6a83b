import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward, grantPoints } from "../../src/server/db/factories.ts";
import { cards, ledgerEntries, redemptions, rewards, shops, vipTiers } from "../../src/server/db/schema/index.ts";
import { writeQrVideo } from "../fixtures/qr-video.ts";
import { launchChromium } from "../setup/chromium.ts";
import {
  eventually,
  expectAccessible,
  heading,
  open,
  PHONE,
  snap,
  type Stack,
  startStack,
  unique,
} from "../setup/e2e.ts";
import { SOON } from "../setup/timing.ts";

/**
 * Issue 5, rewards and their redemption, in the browser: the shopper's reward page and live validation screen, the
 * counter's validation (typed and scanned), the owner's catalogue, settings and VIP levels, /vip, and the places
 * rewards show up elsewhere (shop page, cards, activity, back-office dashboard).
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** A points shop with its owner and an employee (role "member"). */
async function pointsShop(name: string) {
  const owner = await stack.createUser({ firstName: "Odile", lastName: "Marchand" });
  const shop = await stack.createShop(owner.id, { name: `${name} ${unique()}` });
  // Points mode, 10 per visit: set straight in the table (the card settings page has its own tests).
  await stack.deps.db.update(shops).set({ cardMode: "points", pointsPerVisit: 10 }).where(eq(shops.id, shop.id));
  const employee = await stack.createUser({ firstName: "Hugo", lastName: "Lemoine" });
  await addStaff(stack.deps, shop.id, employee.id, "member");
  return { owner, shop, employee };
}

async function balanceOf(shopId: string, userId: string) {
  const [card] = await stack.deps.db
    .select({ balance: cards.balance, lifetime: cards.lifetime })
    .from(cards)
    .where(and(eq(cards.shopId, shopId), eq(cards.userId, userId)));
  return card;
}

/** "Utiliser" over HTTP (for the tests that start from a pending redemption). */
async function redeemOverHttp(context: BrowserContext, slug: string) {
  const res = await context.request.post(`${stack.baseUrl}/api/rewards/${slug}/redeem`, {
    data: { idempotencyKey: randomUUID() },
    headers: { origin: stack.baseUrl },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { redemption: { id: string; code: string; qr: string } }).redemption;
}

describe("rewards: the shopper and the counter", () => {
  it("a shopper uses a reward, staff validate its code on another device, and the shopper's screen turns validated live", async () => {
    const { shop, employee } = await pointsShop("Café des Arts");
    const reward = await createReward(stack.deps, {
      shopId: shop.id,
      title: "Café gourmand offert",
      description: "Un expresso et trois mignardises, au comptoir ou en terrasse.",
      cost: 100,
      stock: 12,
    });
    await createReward(stack.deps, { shopId: shop.id, title: "Brunch du dimanche", cost: 300, position: 1 });
    const shopper = await stack.createUser({ firstName: "Camille", lastName: "Martin" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 120 });

    // — The shopper's phone: the reward page, reachable.
    const phone = await stack.signedIn(shopper);
    const page = await phone.newPage();
    await open(page, `/reward/${reward.slug}`, "Café gourmand offert");
    await eventually(() => page.getByText("120 points", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText("Votre solde suffit pour cette récompense.").isVisible()).toBe(true);
    expect(await page.getByText("Coûte 100 points.").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "rewards-reward-page", { fullPage: true });

    await page.getByRole("button", { name: "Utiliser" }).click();
    await page.waitForURL(/\/validation-recompense\/[0-9a-f-]{36}$/);
    const redemptionId = page.url().split("/").at(-1)!;
    await eventually(() => heading(page)).toBe("Café gourmand offert");
    const code = ((await page.getByTestId("redemption-code").locator("[aria-hidden=true]").textContent()) ?? "").trim();
    expect(code).toMatch(/^[A-Z2-9]{6}$/);
    expect(await page.getByRole("img", { name: /QR code de la récompense/ }).getAttribute("data-qr")).toBe(
      `FIDELE-R:${code}`,
    );
    await eventually(() => page.getByText(/Expire dans/).isVisible()).toBe(true);
    // Alive: the clock moves every second (a screenshot would not).
    const clock = page.getByTestId("live-clock");
    const first = await clock.textContent();
    await eventually(() => clock.textContent()).not.toBe(first);
    expect(await balanceOf(shop.id, shopper.id)).toMatchObject({ balance: 20 });
    await expectAccessible(page);
    await snap(page, "rewards-redemption-pending");

    // — Another shop's staff: the code is not theirs (the API's French 404).
    const other = await pointsShop("Épicerie Voisine");
    const otherCounter = await stack.signedIn(other.employee);
    const otherPage = await otherCounter.newPage();
    await open(otherPage, "/validate-reward", "Valider une récompense");
    await otherPage.getByLabel("Code de la récompense (6 caractères)").fill(code.toLowerCase());
    await otherPage.getByRole("button", { name: "Rechercher le code" }).click();
    await eventually(() =>
      otherPage.getByText("Aucune récompense à valider avec ce code dans votre boutique.").isVisible(),
    ).toBe(true);
    await otherCounter.close();

    // — The counter's device: staff type the code.
    const counter = await stack.signedIn(employee);
    const staffPage = await counter.newPage();
    await open(staffPage, "/validate-reward", "Valider une récompense");
    await expectAccessible(staffPage);
    await snap(staffPage, "rewards-counter-empty");
    await staffPage.getByLabel("Code de la récompense (6 caractères)").fill("12");
    await staffPage.getByRole("button", { name: "Rechercher le code" }).click();
    await eventually(() =>
      staffPage.getByText("Ce code n'a pas le bon format : 6 lettres et chiffres.").isVisible(),
    ).toBe(true);
    await staffPage.getByLabel("Code de la récompense (6 caractères)").fill(code);
    await staffPage.getByRole("button", { name: "Rechercher le code" }).click();
    const panel = staffPage.getByRole("region", { name: "Récompense à valider" });
    await eventually(() => panel.getByRole("heading", { name: "Café gourmand offert" }).isVisible()).toBe(true);
    expect(await panel.getByText("Camille", { exact: true }).isVisible()).toBe(true);
    expect(await panel.getByText("100 points", { exact: true }).isVisible()).toBe(true);
    expect(await panel.getByTestId("counter-status").textContent()).toBe("En attente de validation");
    await expectAccessible(staffPage);
    await snap(staffPage, "rewards-counter-found");

    // The click, then the shopper's screen, live: pushed by its event stream, without a reload and without the
    // fallback's polling of the redemption (counted, not timed: a busy machine only makes it later).
    const shopperRequests: string[] = [];
    page.on("request", (request) =>
      shopperRequests.push(`${request.resourceType()} ${new URL(request.url()).pathname}`),
    );
    await staffPage.getByRole("button", { name: "Valider", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Récompense validée" }).waitFor();
    expect(
      shopperRequests.filter((r) => r.startsWith("document ") || r.endsWith(`/api/redemptions/${redemptionId}`)),
    ).toEqual([]);
    expect(await page.getByTestId("redemption-final").getByText("Nouveau solde : 20 points").isVisible()).toBe(true);
    expect(await page.getByTestId("redemption-final").getAttribute("data-status")).toBe("validated");
    await expectAccessible(page);
    await snap(page, "rewards-redemption-validated");

    await eventually(() => staffPage.getByTestId("counter-outcome").textContent()).toContain(
      "Remettez « Café gourmand offert » à Camille.",
    );
    await expectAccessible(staffPage);
    await snap(staffPage, "rewards-counter-validated");
    // Scanning the same code again: already validated, by whom.
    await staffPage.getByRole("button", { name: "Valider une autre récompense" }).click();
    await staffPage.getByLabel("Code de la récompense (6 caractères)").fill(`FIDELE-R:${code}`);
    await staffPage.getByRole("button", { name: "Rechercher le code" }).click();
    await eventually(() => staffPage.getByText(/Déjà validée par Hugo Lemoine/).isVisible()).toBe(true);

    // The ledger: spent, then handed over (no "+0"); the stock went down by one.
    const entries = await stack.deps.db
      .select({ kind: ledgerEntries.kind, delta: ledgerEntries.delta, actorId: ledgerEntries.actorId })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.shopId, shop.id))
      .orderBy(asc(ledgerEntries.createdAt));
    expect(entries.map((e) => [e.kind, e.delta])).toEqual([
      ["bonus", 120],
      ["redemption", -100],
      ["validation", 0],
    ]);
    expect(entries.at(-1)?.actorId).toBe(employee.id);
    const [row] = await stack.deps.db
      .select({ status: redemptions.status })
      .from(redemptions)
      .where(eq(redemptions.id, redemptionId));
    expect(row?.status).toBe("validated");
    const [stock] = await stack.deps.db.select({ stock: rewards.stock }).from(rewards).where(eq(rewards.id, reward.id));
    expect(stock?.stock).toBe(11);

    await open(page, "/dashboard", "Mon activité");
    const activity = page.getByRole("region", { name: "Mon activité récente" });
    await eventually(() => activity.getByText("Récompense remise en boutique", { exact: false }).isVisible()).toBe(
      true,
    );
    expect(await activity.getByText("−100 points").isVisible()).toBe(true);
    expect(await activity.getByText("Remise", { exact: true }).isVisible()).toBe(true);
    expect(await activity.textContent()).not.toContain("+0");
    await expectAccessible(page);
    await snap(page, "rewards-activity");

    await open(page, "/cartes-de-fidelite", "Mes cartes");
    await eventually(() => page.getByTestId("card-rewards").textContent()).toBe(
      "Prochaine récompense : Café gourmand offert (encore 80 points)",
    );
    await expectAccessible(page);
    await snap(page, "rewards-cards-glance");
    await phone.close();
    await counter.close();
  });

  it("staff refuse with a reason; a redemption past its time expires; both give the points back live", async () => {
    const { shop, employee } = await pointsShop("Fromagerie Lou");
    const reward = await createReward(stack.deps, { shopId: shop.id, title: "Plateau découverte", cost: 50 });
    const shopper = await stack.createUser({ firstName: "Inès", lastName: "Bernard" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 60 });
    const phone = await stack.signedIn(shopper);
    const page = await phone.newPage();
    const counter = await stack.signedIn(employee);
    const staffPage = await counter.newPage();

    // Refused.
    const refused = await redeemOverHttp(phone, reward.slug);
    await open(page, `/validation-recompense/${refused.id}`, "Plateau découverte");
    await open(staffPage, "/validate-reward", "Valider une récompense");
    await staffPage.getByLabel("Code de la récompense (6 caractères)").fill(refused.code);
    await staffPage.getByRole("button", { name: "Rechercher le code" }).click();
    await staffPage.getByRole("button", { name: "Refuser" }).click();
    await staffPage.getByRole("button", { name: "Confirmer le refus" }).click();
    await eventually(() => staffPage.getByText("Motif : au moins 3 caractères.").isVisible()).toBe(true);
    await staffPage.getByLabel("Motif du refus (le client le lira)").fill("Plus de comté aujourd'hui, désolé");
    await expectAccessible(staffPage);
    await snap(staffPage, "rewards-counter-refusing");
    await staffPage.getByRole("button", { name: "Confirmer le refus" }).click();
    await page.getByRole("heading", { level: 1, name: "Récompense refusée" }).waitFor();
    expect(await page.getByText("Motif : Plus de comté aujourd'hui, désolé").isVisible()).toBe(true);
    expect(await page.getByText("Vos 50 points vous ont été rendus.").isVisible()).toBe(true);
    expect(await page.getByTestId("redemption-final").getByText("Nouveau solde : 60 points").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "rewards-redemption-refused");
    await eventually(() => staffPage.getByTestId("counter-outcome").textContent()).toContain(
      "Son solde lui a été rendu.",
    );

    // Expired: its time is up (moved to the past here); the live screen says so within seconds.
    const late = await redeemOverHttp(phone, reward.slug);
    await open(page, `/validation-recompense/${late.id}`, "Plateau découverte");
    await stack.deps.db
      .update(redemptions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(redemptions.id, late.id));
    await page.getByRole("heading", { level: 1, name: "Récompense expirée" }).waitFor();
    expect(await page.getByTestId("redemption-final").getByText("Nouveau solde : 60 points").isVisible()).toBe(true);
    await snap(page, "rewards-redemption-expired");
    await phone.close();
    await counter.close();
  });

  it("staff scan the shopper's QR code with the camera (Chromium's fake camera), the reader's wasm served by this site", async () => {
    const { shop, employee } = await pointsShop("Pâtisserie Mira");
    const reward = await createReward(stack.deps, { shopId: shop.id, title: "Macaron offert", cost: 10 });
    const shopper = await stack.createUser({ firstName: "Léo", lastName: "Garnier" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 10 });
    const phone = await stack.signedIn(shopper);
    const redemption = await redeemOverHttp(phone, reward.slug);
    await phone.close();

    const video = path.join(await mkdtemp(path.join(tmpdir(), "fidele-reward-qr-")), "reward-qr.y4m");
    await writeQrVideo(video, redemption.qr);
    const browser: Browser = await launchChromium([
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
      `--use-file-for-fake-video-capture=${video}`,
    ]);
    try {
      const context = await browser.newContext({ ...PHONE, baseURL: stack.baseUrl });
      await stack.signIn(context, employee.email, employee.password);
      const requests: string[] = [];
      context.on("request", (r) => {
        requests.push(r.url());
      });
      const page = await context.newPage();
      await open(page, "/validate-reward", "Valider une récompense");
      // The wasm reader is not loaded until the camera is turned on.
      expect(requests.some((u) => u.endsWith(".wasm"))).toBe(false);
      await page.getByRole("button", { name: "Scanner le QR code du client" }).click();
      const panel = page.getByRole("region", { name: "Récompense à valider" });
      await panel.getByRole("heading", { name: "Macaron offert" }).waitFor({ timeout: SOON });
      expect(await panel.getByText(redemption.code, { exact: true }).isVisible()).toBe(true);
      expect(requests.some((u) => new URL(u).pathname.endsWith(".wasm"))).toBe(true);
      expect(requests.filter((u) => !/^(data:|blob:|http:\/\/127\.0\.0\.1)/.test(u))).toEqual([]);
      await page.getByRole("button", { name: "Valider", exact: true }).click();
      await eventually(() => page.getByTestId("counter-outcome").isVisible()).toBe(true);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});

describe("rewards: the owner's back-office", () => {
  it("creates a reward with a photo and a live preview, switches it off and on, reorders, sets VIP levels and settings; shoppers see it", async () => {
    const owner = await stack.createUser({ firstName: "Nadia", lastName: "Roux" });
    const shop = await stack.createShop(owner.id, { name: `Boulangerie Lumière ${unique()}` });
    await createReward(stack.deps, { shopId: shop.id, title: "Baguette tradition", cost: 3 });
    const spare = await createReward(stack.deps, {
      shopId: shop.id,
      title: "Pain d'épices (ancien)",
      cost: 9,
      position: 1,
    });
    const context = await stack.signedIn(owner);
    const page = await context.newPage();

    // — The form: French errors, then a reward with its photo; the preview follows what is typed.
    await open(page, "/admin/ajouter-un-reward", "Nouvelle récompense");
    await page.getByLabel("Coût (tampons)").fill("");
    await page.getByRole("button", { name: "Créer la récompense" }).click();
    await eventually(() => page.getByText("Saisissez le nom de la récompense.").isVisible()).toBe(true);
    await page.getByLabel("Nom").fill("Viennoiserie offerte");
    await page
      .getByLabel("Description (facultative)")
      .fill("Croissant, pain au chocolat ou chausson aux pommes, au choix.");
    await page.getByLabel("Coût (tampons)").fill("5");
    await page.getByRole("radio", { name: /Palier \(une seule fois\)/ }).check();
    await page.getByLabel("Stock (facultatif)").fill("30");
    const png = await page.evaluate(() => {
      const canvas = document.createElement("canvas");
      canvas.width = 800;
      canvas.height = 500;
      const g = canvas.getContext("2d")!;
      const gradient = g.createLinearGradient(0, 0, 800, 500);
      gradient.addColorStop(0, "#fbbf24");
      gradient.addColorStop(1, "#b45309");
      g.fillStyle = gradient;
      g.fillRect(0, 0, 800, 500);
      g.fillStyle = "#fef3c7";
      g.beginPath();
      g.ellipse(400, 260, 230, 120, -0.2, 0, Math.PI * 2);
      g.fill();
      return canvas.toDataURL("image/png").split(",")[1]!;
    });
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: "croissant.png", mimeType: "image/png", buffer: Buffer.from(png, "base64") });
    await eventually(() => page.getByText(/Ko après réduction/).isVisible()).toBe(true);
    const preview = page.getByTestId("reward-preview");
    await eventually(() => preview.getByRole("heading", { name: "Viennoiserie offerte" }).isVisible()).toBe(true);
    expect(await preview.textContent()).toContain("Une seule fois par client.");
    expect(await preview.textContent()).toContain("Encore 30 disponibles.");
    expect(await preview.getByText("5 tampons", { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "rewards-admin-form", { fullPage: true });
    await page.getByRole("button", { name: "Créer la récompense" }).click();

    // — The list: saved, with its photo; on/off; order.
    await page.waitForURL((u) => u.pathname === "/admin/recompenses");
    await eventually(() => page.getByText("« Viennoiserie offerte » est enregistrée.").isVisible()).toBe(true);
    const [created] = await stack.deps.db
      .select({ id: rewards.id, slug: rewards.slug, kind: rewards.kind, stock: rewards.stock, photo: rewards.photo })
      .from(rewards)
      .where(and(eq(rewards.shopId, shop.id), eq(rewards.title, "Viennoiserie offerte")));
    expect(created).toMatchObject({ kind: "ladder", stock: 30 });
    expect(created?.photo).toMatch(/^data:image\/(webp|jpeg);base64,/);
    const titles = () => page.getByTestId("owner-reward").getByRole("heading").allTextContents();
    expect(await titles()).toEqual(["Baguette tradition", "Pain d'épices (ancien)", "Viennoiserie offerte"]);

    const toggle = page.getByRole("switch", { name: "Proposer « Viennoiserie offerte » aux clients" });
    await toggle.click();
    await eventually(() => toggle.getAttribute("aria-checked")).toBe("false");
    const shopApi = async () =>
      (
        (await (await context.request.get(`${stack.baseUrl}/api/shops/${shop.slug}`)).json()) as {
          rewards: { title: string }[];
        }
      ).rewards.map((r) => r.title);
    expect(await shopApi()).not.toContain("Viennoiserie offerte");
    await toggle.click();
    await eventually(() => toggle.getAttribute("aria-checked")).toBe("true");
    expect(await shopApi()).toContain("Viennoiserie offerte");

    await page.getByRole("button", { name: "Monter « Viennoiserie offerte »" }).click();
    await page.getByRole("button", { name: "Monter « Viennoiserie offerte »" }).click();
    await eventually(titles).toEqual(["Viennoiserie offerte", "Baguette tradition", "Pain d'épices (ancien)"]);
    await eventually(shopApi).toEqual(["Viennoiserie offerte", "Baguette tradition", "Pain d'épices (ancien)"]);

    // Deleting one nobody used removes it.
    await page.getByRole("button", { name: "Supprimer « Pain d'épices (ancien) »" }).click();
    await page
      .getByRole("group", { name: "Supprimer « Pain d'épices (ancien) »" })
      .getByRole("button", { name: "Supprimer" })
      .click();
    await eventually(() => page.getByText("« Pain d'épices (ancien) » a été supprimée.").isVisible()).toBe(true);
    expect(await stack.deps.db.select().from(rewards).where(eq(rewards.id, spare.id))).toEqual([]);

    // — Settings and VIP levels.
    await page.getByLabel("Délai pour valider au comptoir (minutes)").fill("20");
    await page.getByLabel("Cadeau d'anniversaire").selectOption({ label: "Baguette tradition" });
    await page.getByRole("button", { name: "Enregistrer les réglages" }).click();
    await eventually(() => page.getByText("Réglages enregistrés.").isVisible()).toBe(true);

    await page.getByRole("button", { name: "+ Ajouter un niveau" }).click();
    await page.getByRole("button", { name: "+ Ajouter un niveau" }).click();
    const silver = page.getByRole("group", { name: "Niveau 1" });
    const gold = page.getByRole("group", { name: "Niveau 2" });
    expect(await silver.getByLabel("Nom").inputValue()).toBe("Argent");
    await silver.getByLabel("Seuil (tampons)").fill("20");
    await gold.getByLabel("Seuil (tampons)").fill("15");
    await page.getByRole("button", { name: "Enregistrer les niveaux" }).click();
    await eventually(() =>
      page.getByText("Chaque niveau doit demander plus que le précédent.").first().isVisible(),
    ).toBe(true);
    await gold.getByLabel("Seuil (tampons)").fill("40");
    await gold.getByLabel("Bonus").selectOption("2");
    await gold.getByLabel("Cadeau (facultatif)").selectOption({ label: "Viennoiserie offerte" });
    await page.getByRole("button", { name: "Enregistrer les niveaux" }).click();
    await eventually(() => page.getByText("Niveaux VIP enregistrés", { exact: false }).isVisible()).toBe(true);
    const tiers = await stack.deps.db
      .select({
        name: vipTiers.name,
        threshold: vipTiers.threshold,
        multiplier: vipTiers.multiplier,
        rewardId: vipTiers.rewardId,
      })
      .from(vipTiers)
      .where(eq(vipTiers.shopId, shop.id))
      .orderBy(asc(vipTiers.threshold));
    expect(tiers).toEqual([
      { name: "Argent", threshold: 20, multiplier: 1, rewardId: null },
      { name: "Or", threshold: 40, multiplier: 2, rewardId: created!.id },
    ]);
    await expectAccessible(page);
    await snap(page, "rewards-admin-list", { fullPage: true });

    // Editing opens the form filled in.
    await page.getByRole("link", { name: "Modifier « Viennoiserie offerte »" }).click();
    await eventually(() => heading(page)).toBe("Modifier la récompense");
    await eventually(() => page.getByLabel("Nom").inputValue()).toBe("Viennoiserie offerte");
    expect(await page.getByLabel("Stock (facultatif)").inputValue()).toBe("30");

    // — The owner's dashboard: what is owed.
    await open(page, "/admin", "Tableau de bord");
    const owed = page.getByRole("region", { name: "Ce que vous devez" });
    await eventually(() => owed.getByText("À remettre au comptoir").isVisible()).toBe(true);
    await expectAccessible(page);
    await owed.scrollIntoViewIfNeeded();
    await snap(page, "rewards-admin-dashboard-owed");
    await context.close();

    // — A shopper with 3 stamps sees it on the shop page, with what is missing.
    const shopper = await stack.createUser({ firstName: "Jules" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 3 });
    const phone = await stack.signedIn(shopper);
    const shopperPage = await phone.newPage();
    await open(shopperPage, `/shop/${shop.slug}`, shop.name);
    const section = shopperPage.getByRole("region", { name: "Récompenses" });
    await eventually(() => section.getByRole("link", { name: /Viennoiserie offerte/ }).isVisible()).toBe(true);
    expect(await section.getByRole("link", { name: /Viennoiserie offerte/ }).textContent()).toContain(
      "Encore 2 tampons",
    );
    expect(await section.getByRole("link", { name: /Baguette tradition/ }).textContent()).toContain("Disponible");
    expect(await section.getByRole("link", { name: /Viennoiserie offerte/ }).getAttribute("href")).toBe(
      `/reward/${created!.slug}`,
    );
    await expectAccessible(shopperPage);
    await section.scrollIntoViewIfNeeded();
    await snap(shopperPage, "rewards-shop-section");
    await open(shopperPage, "/cartes-de-fidelite", "Mes cartes");
    await eventually(() => shopperPage.getByTestId("card-rewards").textContent()).toBe(
      "1 récompense disponible · Prochaine récompense : Viennoiserie offerte (encore 2 tampons)",
    );
    await expectAccessible(shopperPage);
    await phone.close();
  });

  it("the owner validates at /admin/validate-reward; staff cannot open the catalogue", async () => {
    const { owner, shop, employee } = await pointsShop("Caviste Odéon");
    const reward = await createReward(stack.deps, { shopId: shop.id, title: "Bouteille de cidre", cost: 40 });
    const shopper = await stack.createUser({ firstName: "Maëlle" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 45 });
    const phone = await stack.signedIn(shopper);
    const redemption = await redeemOverHttp(phone, reward.slug);
    await phone.close();

    const context = await stack.signedIn(owner);
    const page = await context.newPage();
    await open(page, "/admin/validate-reward", "Valider une récompense");
    await page.getByLabel("Code de la récompense (6 caractères)").fill(redemption.code);
    await page.getByRole("button", { name: "Rechercher le code" }).click();
    await eventually(() => page.getByRole("region", { name: "Récompense à valider" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "rewards-admin-validate");
    await page.getByRole("button", { name: "Valider", exact: true }).click();
    await eventually(() => page.getByTestId("counter-outcome").textContent()).toContain("Récompense validée");
    // The list of recent redemptions shows it, validated by the owner.
    await open(page, "/admin/recompenses", "Récompenses");
    const recent = page.getByRole("region", { name: "À valider / récentes" });
    await eventually(() => recent.getByText("Validée par Odile Marchand").isVisible()).toBe(true);
    await context.close();

    // An employee ("member") is sent to the counter page instead of the owner's catalogue.
    const counter = await stack.signedIn(employee);
    const staffPage = await counter.newPage();
    await staffPage.goto("/admin/recompenses");
    await eventually(() => staffPage.locator("main h1").textContent()).toContain("Accès refusé");
    await counter.close();
  });
});

describe("rewards: VIP levels, gifts and cancelling", () => {
  it("/vip shows my level and progress; a level's gift is claimed; cancelling a pending redemption gives the points back", async () => {
    const { owner, shop } = await pointsShop("Torréfaction Nord");
    const gift = await createReward(stack.deps, {
      shopId: shop.id,
      title: "Sachet de café 250 g",
      cost: 500,
      position: 1,
    });
    const reward = await createReward(stack.deps, { shopId: shop.id, title: "Cappuccino offert", cost: 100 });
    await stack.deps.db.insert(vipTiers).values([
      { shopId: shop.id, name: "Argent", threshold: 50, multiplier: 1, rewardId: gift.id },
      { shopId: shop.id, name: "Or", threshold: 200, multiplier: 2, rewardId: null },
    ]);
    const shopper = await stack.createUser({ firstName: "Zoé" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 120 });
    const phone = await stack.signedIn(shopper);
    const page = await phone.newPage();

    await open(page, "/vip", "Mes niveaux VIP");
    const card = page.getByRole("region", { name: shop.name });
    await eventually(() => card.getByText("Encore 80 points pour atteindre Or").isVisible()).toBe(true);
    expect(await card.textContent()).toContain("120 points cumulés depuis le début");
    expect(
      await card.getByRole("progressbar", { name: "Progression vers le niveau Or" }).getAttribute("aria-valuenow"),
    ).toBe("47");
    expect(await card.getByText("Dès 200 points · points ×2").isVisible()).toBe(true);
    expect(
      await page
        .getByText("Utiliser une récompense ne fait jamais baisser votre niveau.", { exact: false })
        .isVisible(),
    ).toBe(true);
    await expectAccessible(page);
    await snap(page, "rewards-vip", { fullPage: true });

    // The gift of Argent: claimed, shown as "Offert" at the counter, then "Voir" while it waits.
    await card.getByRole("button", { name: "Recevoir mon cadeau" }).click();
    await page.waitForURL(/\/validation-recompense\//);
    await eventually(() => heading(page)).toBe("Sachet de café 250 g");
    expect(await page.getByText("Offert · montrez cet écran au comptoir").isVisible()).toBe(true);
    await snap(page, "rewards-gift-pending");
    await open(page, "/vip", "Mes niveaux VIP");
    await eventually(() => card.getByRole("link", { name: /Voir/ }).isVisible()).toBe(true);
    await snap(page, "rewards-vip-gift-claimed");
    expect(await balanceOf(shop.id, shopper.id)).toMatchObject({ balance: 120, lifetime: 120 });

    // A reward: used, resumed from its page, then cancelled: the points come back.
    await open(page, `/reward/${reward.slug}`, "Cappuccino offert");
    await page.getByRole("button", { name: "Utiliser" }).click();
    await page.waitForURL(/\/validation-recompense\//);
    const pendingUrl = page.url();
    expect(await balanceOf(shop.id, shopper.id)).toMatchObject({ balance: 20, lifetime: 120 });
    await open(page, `/reward/${reward.slug}`, "Cappuccino offert");
    await eventually(() => page.getByRole("link", { name: "Reprendre ma récompense en cours" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "rewards-reward-resume");
    await page.getByRole("link", { name: "Reprendre ma récompense en cours" }).click();
    await page.waitForURL(pendingUrl);
    await page.getByRole("button", { name: "Annuler" }).click();
    await expectAccessible(page);
    await snap(page, "rewards-redemption-cancel-confirm");
    await page.getByRole("button", { name: "Oui, annuler" }).click();
    await eventually(() => heading(page)).toBe("Récompense annulée");
    expect(await page.getByText("Vos 100 points vous ont été rendus.").isVisible()).toBe(true);
    expect(await page.getByTestId("redemption-final").getByText("Nouveau solde : 120 points").isVisible()).toBe(true);
    await snap(page, "rewards-redemption-cancelled");
    expect(await balanceOf(shop.id, shopper.id)).toMatchObject({ balance: 120, lifetime: 120 });
    await phone.close();

    // The owner deletes the reward: it was used, so it is archived.
    const context = await stack.signedIn(owner);
    const ownerPage = await context.newPage();
    await open(ownerPage, "/admin/recompenses", "Récompenses");
    await ownerPage.getByRole("button", { name: "Supprimer « Cappuccino offert »" }).click();
    await ownerPage
      .getByRole("group", { name: "Supprimer « Cappuccino offert »" })
      .getByRole("button", { name: "Supprimer" })
      .click();
    await eventually(() => ownerPage.getByText(/« Cappuccino offert » a été archivée/).isVisible()).toBe(true);
    await context.close();
  });

  it("signed out, a reward page invites to sign in; without levels, /vip says how to get one", async () => {
    const { shop } = await pointsShop("Librairie Page");
    const reward = await createReward(stack.deps, { shopId: shop.id, title: "Marque-page en cuir", cost: 30 });
    const visitor = await stack.newContext();
    const page = await visitor.newPage();
    await open(page, `/reward/${reward.slug}`, "Marque-page en cuir");
    const login = page.getByRole("link", { name: "Se connecter pour l'utiliser" });
    expect(await login.getAttribute("href")).toBe(`/login?redirect=${encodeURIComponent(`/reward/${reward.slug}`)}`);
    await expectAccessible(page);
    await snap(page, "rewards-reward-signed-out");
    await page.goto("/reward/nexiste-pas");
    await eventually(() => page.locator("main h1").textContent()).toMatch(/Page/);
    await visitor.close();

    const shopper = await stack.createUser();
    const phone = await stack.signedIn(shopper);
    const vipPage = await phone.newPage();
    await open(vipPage, "/vip", "Mes niveaux VIP");
    await eventually(() => vipPage.getByRole("heading", { name: "Pas encore de niveau VIP" }).isVisible()).toBe(true);
    expect(await vipPage.getByRole("link", { name: "Découvrir les boutiques" }).getAttribute("href")).toBe(
      "/boutiques",
    );
    await expectAccessible(vipPage);
    await snap(vipPage, "rewards-vip-empty");

    // Without enough points: the French reason, no "Utiliser".
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 10 });
    await open(vipPage, `/reward/${reward.slug}`, "Marque-page en cuir");
    await eventually(() => vipPage.getByText("Encore 20 points pour cette récompense.").isVisible()).toBe(true);
    expect(await vipPage.getByRole("button", { name: "Utiliser" }).count()).toBe(0);
    await expectAccessible(vipPage);
    await snap(vipPage, "rewards-reward-missing");
    await phone.close();
  });
});
