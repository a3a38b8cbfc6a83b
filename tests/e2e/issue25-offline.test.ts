import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortCodeOf } from "../../src/domain/loyalty/short-code.ts";
import { addStaff } from "../../src/server/db/factories.ts";
import { tokenFor } from "../api/shops-helpers.ts";
import {
  eventually,
  expectAccessible,
  heading,
  snap,
  type Stack,
  startStack,
  unique,
  waitForControl,
} from "../setup/e2e.ts";

/**
 * Issue 25 row 15 at 390×844: offline, a screen says « Hors connexion » instead of loading forever, and a counter
 * opened seconds before the network drops keeps its codes from the first second.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** A phone where the service worker runs (127.0.0.1 is a secure origin): the installed app. */
const pwaContext = () => stack.newContext({ serviceWorkers: "allow" });

/** What this phone keeps for offline use (src/client/lib/offline-cache.ts). */
const kept = (page: Page) => page.evaluate(() => localStorage.getItem("fidele:offline-cache") ?? "");

/** "Close and reopen" the installed app: a fresh page of the same phone (its storage and worker stay). */
async function reopen(context: BrowserContext, page: Page, path: string) {
  await page.close();
  const again = await context.newPage();
  await again.goto(path);
  return again;
}

/** The code on screen is one the server accepts now (this step's, or the previous one's at a boundary). */
async function expectValidCode(page: Page, shopId: string) {
  const shown = (await page.getByTestId("short-code").textContent())?.replace(/\s/g, "");
  const now = await tokenFor(stack.deps.db, shopId);
  const before = await tokenFor(stack.deps.db, shopId, Date.now() - 30_000);
  expect([shortCodeOf(now.token), shortCodeOf(before.token)]).toContain(shown);
}

describe("issue 25 row 15: offline", () => {
  it("issue 25 row 15: /notifications opened offline says « Hors connexion » (no skeleton forever) and fills in when the network returns; online it never does", async () => {
    const shopper = await stack.createUser({ firstName: "Maëlle" });
    const context = await pwaContext();
    await stack.signIn(context, shopper.email, shopper.password);
    let page = await context.newPage();
    await page.goto("/");
    await eventually(() => heading(page)).toBe("Bonjour Maëlle");
    await waitForControl(page);
    await eventually(() => kept(page)).toContain('"me"');

    // Online: the inbox, no offline word.
    page = await reopen(context, page, "/notifications");
    await eventually(() => page.getByText("Aucun message pour l'instant", { exact: false }).isVisible()).toBe(true);
    expect(await page.getByText("Hors connexion").count()).toBe(0);

    // Offline: the app opens from the phone, the inbox cannot come, and the page says why.
    await context.setOffline(true);
    page = await reopen(context, page, "/notifications");
    await eventually(() => heading(page)).toBe("Notifications");
    const offline = page.getByRole("status").filter({ hasText: "Hors connexion." });
    await eventually(() => offline.isVisible()).toBe(true);
    expect(await page.locator('[aria-busy="true"]').count()).toBe(0);
    await expectAccessible(page);
    await snap(page, "issue25-row15-notifications-offline");

    // The network returns: the inbox fills in by itself.
    await context.setOffline(false);
    await eventually(() => page.getByText("Aucun message pour l'instant", { exact: false }).isVisible()).toBe(true);
    expect(await page.getByText("Hors connexion").count()).toBe(0);
    await context.close();
  });

  it("issue 25 row 15: a counter opened just before the network drops has its code written down by the time it shows it, and shows a valid one when reopened offline; a shopper's phone keeps no counter code", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Caviste ${unique()}` });
    const member = await stack.createUser({ firstName: "Léa" });
    await addStaff(stack.deps, shop.id, member.id, "member");
    const context = await pwaContext();
    await stack.signIn(context, member.email, member.password);
    let page = await context.newPage();
    // The app was installed on this tablet before (its worker runs); the counter is opened now.
    await page.goto("/");
    await waitForControl(page);
    await page.goto("/reader");
    await eventually(() => page.getByTestId("short-code").isVisible()).toBe(true);
    // The first code on screen is already kept: no second of grace is needed before the network may drop.
    expect(await kept(page)).toContain('"reader"');

    await context.setOffline(true);
    page = await reopen(context, page, "/reader");
    await eventually(() => heading(page)).toBe(shop.name);
    await eventually(() => page.getByTestId("short-code").isVisible()).toBe(true);
    expect(await page.getByText("Préparation du code…").count()).toBe(0);
    await expectValidCode(page, shop.id);
    await snap(page, "issue25-row15-counter-offline");
    await context.close();

    // A shopper's phone: no counter, no code kept.
    const shopper = await stack.createUser();
    const phone = await stack.signedIn(shopper);
    const shopperPage = await phone.newPage();
    await shopperPage.goto("/");
    await eventually(() => kept(shopperPage)).toContain('"me"');
    expect(await kept(shopperPage)).not.toContain('"counter"');
    await phone.close();
  });

  it("issue 25 row 15: on a network that carries nothing (the shop's Wi-Fi without Internet, the phone still « online »), the reopened counter shows its kept code instead of the sign-in page", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Torréfacteur ${unique()}` });
    const member = await stack.createUser();
    await addStaff(stack.deps, shop.id, member.id, "member");
    const context = await stack.signedIn(member);
    let page = await context.newPage();
    await page.goto("/reader");
    await eventually(() => page.getByTestId("short-code").isVisible()).toBe(true);
    await eventually(() => kept(page)).toContain('"ahead"');

    // The API cannot be reached at all; the page itself still loads (as from the installed app's cache).
    await context.route(/\/api\//, (route) => route.abort("internetdisconnected"));
    page = await reopen(context, page, "/reader");
    await eventually(() => page.getByTestId("short-code").isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe("/reader");
    await expectValidCode(page, shop.id);
    await context.close();
  });
});
