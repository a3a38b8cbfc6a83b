import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortCodeOf } from "../../src/domain/loyalty/short-code.ts";
import { addStaff } from "../../src/server/db/factories.ts";
import { cards, scans } from "../../src/server/db/schema/index.ts";
import { newKey, tokenFor } from "../api/shops-helpers.ts";
import { eventually, heading, snap, type Stack, startStack, waitForControl } from "../setup/e2e.ts";

/**
 * Issue 12: the installed app keeps its promises offline. After one visit, the signed-in home, my cards (design,
 * balance, when it was seen), a shop page and the counter's code screen open with no network; a visit scanned
 * offline is credited when the network returns; the short code under the counter's QR, typed on /scanner,
 * credits the visit.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** A phone where the service worker runs (127.0.0.1 is a secure origin). */
const pwaContext = () => stack.newContext({ serviceWorkers: "allow" });

/** Until the worker controls the page, i.e. the app shell is precached. */

/** Until the phone's copy (offline-cache.ts) holds `text`. */
const waitForKept = (page: Page, text: string) =>
  eventually(() => page.evaluate(() => localStorage.getItem("fidele:offline-cache") ?? "")).toContain(text);

/** "Close and reopen" the installed app: a fresh page of the same phone (its storage and worker stay). */
async function reopen(context: BrowserContext, page: Page, path: string) {
  await page.close();
  const again = await context.newPage();
  const response = await again.goto(path);
  expect(response?.fromServiceWorker()).toBe(true);
  return again;
}

describe("offline, as an installed app", () => {
  it("a shopper's home, cards (with the balance last seen) and a shop page open offline; a visit scanned offline counts when the network returns", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Fromagerie ${randomUUID().slice(0, 6)}` });
    const other = await stack.createShop(owner.id, { name: `Torréfacteur ${randomUUID().slice(0, 6)}` });
    const shopper = await stack.createUser({ firstName: "Inès" });
    const context = await pwaContext();
    await stack.signIn(context, shopper.email, shopper.password);
    // One visit already credited: the card holds 1 stamp.
    const first = await tokenFor(stack.deps.db, shop.id);
    const credited = await context.request.post(`${stack.baseUrl}/api/cards/scan`, {
      data: { ...first, idempotencyKey: newKey() },
      headers: { origin: stack.baseUrl },
    });
    expect((await credited.json()).accepted).toBe(true);

    // One visit of each screen, online.
    let page = await context.newPage();
    await page.goto("/");
    await eventually(() => heading(page)).toBe("Bonjour Inès");
    await waitForControl(page);
    await page.goto("/cartes-de-fidelite");
    await eventually(() => page.getByRole("heading", { name: shop.name }).isVisible()).toBe(true);
    await page.goto(`/shop/${shop.slug}`);
    await eventually(() => heading(page)).toBe(shop.name);
    await waitForKept(page, shop.slug);

    await context.setOffline(true);
    page = await reopen(context, page, "/");
    await eventually(() => heading(page)).toBe("Bonjour Inès");
    expect(await page.getByText("Vos cartes de fidélité, enfin dans votre poche.").count()).toBe(0);
    await snap(page, "offline-home-shopper");

    page = await reopen(context, page, "/cartes-de-fidelite");
    await eventually(() => page.getByRole("heading", { name: shop.name }).isVisible()).toBe(true);
    const card = page.getByRole("listitem").filter({ hasText: shop.name });
    expect(await card.textContent()).toContain("1 / 10");
    await eventually(() => page.getByTestId("card-seen-at").first().textContent()).toMatch(
      /^Solde vu à \d{1,2} h \d{2}$/,
    );
    expect(await page.getByText("Cette page a besoin d'Internet").count()).toBe(0);
    await snap(page, "offline-cards");

    page = await reopen(context, page, `/shop/${shop.slug}`);
    await eventually(() => heading(page)).toBe(shop.name);
    await snap(page, "offline-shop-page");

    // A shop page never seen: it says it needs the network, in French, and comes back with it.
    await page.goto(`/shop/${other.slug}`);
    await eventually(() => heading(page)).toBe("Vous êtes hors connexion");
    await context.setOffline(false);
    await eventually(() => heading(page)).toBe(other.name);
    await context.setOffline(true);

    // At another shop's counter, without network: the phone keeps the code it scanned. (A code shown two
    // minutes ago: by the time the network returns, the code itself has expired; the shop's grace counts.)
    const old = await tokenFor(stack.deps.db, other.id, Date.now() - 2 * 60_000);
    await page.goto(`/boutique/${old.scanUid}?t=${encodeURIComponent(old.token)}`);
    await eventually(() => heading(page)).toBe("Passage gardé sur ce téléphone");
    expect(await page.getByRole("status").textContent()).toContain("sera envoyé dès le retour du réseau");
    await snap(page, "offline-scan-kept");
    const cardAt = () =>
      stack.deps.db
        .select({ balance: cards.balance })
        .from(cards)
        .where(and(eq(cards.shopId, other.id), eq(cards.userId, shopper.id)));
    expect(await cardAt()).toEqual([]);

    await context.setOffline(false);
    await eventually(() => heading(page)).toBe("Passage validé !");
    expect(await cardAt()).toEqual([{ balance: 1 }]);
    const [scan] = await stack.deps.db
      .select({ flags: scans.flags, outcome: scans.outcome })
      .from(scans)
      .where(eq(scans.shopId, other.id));
    expect(scan).toEqual({ outcome: "accepted", flags: ["offline"] });
    expect(await page.evaluate(() => localStorage.getItem("fidele:offline-scans"))).toBeNull();
    await context.close();
  });

  it("/reader keeps showing a valid code, and its short code, with no network", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Librairie ${randomUUID().slice(0, 6)}` });
    const employee = await stack.createUser();
    await addStaff(stack.deps, shop.id, employee.id, "member");
    const context = await pwaContext();
    await stack.signIn(context, employee.email, employee.password);
    let page = await context.newPage();
    await page.goto("/reader");
    await eventually(() => heading(page)).toBe(shop.name);
    await waitForControl(page);
    await waitForKept(page, '"ahead"');

    await context.setOffline(true);
    page = await reopen(context, page, "/reader");
    await eventually(() => heading(page)).toBe(shop.name);
    const qr = page.getByRole("img", { name: `QR code à scanner pour valider un passage chez ${shop.name}` });
    await eventually(() => qr.isVisible()).toBe(true);
    // The code on screen is one the server accepts now (this step's, or the previous one's at a boundary).
    const shown = (await page.getByTestId("short-code").textContent())?.replace(/\s/g, "");
    const now = await tokenFor(stack.deps.db, shop.id);
    const before = await tokenFor(stack.deps.db, shop.id, Date.now() - 30_000);
    expect([shortCodeOf(now.token), shortCodeOf(before.token)]).toContain(shown);
    expect(await qr.getAttribute("data-qr")).toMatch(new RegExp(`/boutique/${shop.scanUid}\\?t=`));
    await snap(page, "offline-reader");
    await context.close();
  });
});

describe("the counter's short code", () => {
  it("typed on /scanner, credits the visit", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Caviste ${randomUUID().slice(0, 6)}` });
    const employee = await stack.createUser();
    await addStaff(stack.deps, shop.id, employee.id, "member");
    const counter = await stack.newContext();
    await stack.signIn(counter, employee.email, employee.password);
    const reader = await counter.newPage();
    await reader.goto("/reader");
    await eventually(() => heading(reader)).toBe(shop.name);
    await snap(reader, "reader-short-code");

    const shopper = await stack.createUser();
    const phone = await stack.newContext();
    await stack.signIn(phone, shopper.email, shopper.password);
    const page = await phone.newPage();
    await page.goto("/scanner");
    const field = page.getByLabel(
      "Tapez le code de 6 caractères affiché sous le QR code du comptoir (ou collez son lien).",
    );
    await field.waitFor();
    // Read across the counter, typed as people do: lower case, with the space.
    const code = (await reader.getByTestId("short-code").textContent()) ?? "";
    expect(code).toMatch(/^[2-9A-HJKMNP-Z]{3} [2-9A-HJKMNP-Z]{3}$/);
    await field.fill(code.toLowerCase());
    await page.getByRole("button", { name: "Valider le code" }).click();
    await eventually(() => heading(page)).toBe("Passage validé !");
    const [card] = await stack.deps.db
      .select({ balance: cards.balance })
      .from(cards)
      .where(and(eq(cards.shopId, shop.id), eq(cards.userId, shopper.id)));
    expect(card?.balance).toBe(1);

    // A wrong code says so in French.
    await page.goto("/scanner");
    await field.fill("ZZZ ZZZ");
    await page.getByRole("button", { name: "Valider le code" }).click();
    await eventually(() => page.getByRole("alert").textContent()).toContain("Code inconnu ou expiré");
    await counter.close();
    await phone.close();
  });
});
