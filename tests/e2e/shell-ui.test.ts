import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectAccessible, snap, type Stack, startStack } from "../setup/e2e.ts";

/** Service workers install, and fake clocks run, slowly on a busy 2-core machine: these journeys get more time. */
/**
 * The shell around every screen (issue 3, items 5–7): the mobile-only overlay, the install card, the colour mode and
 * the navigation loading bar.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const homeHeading = (page: Page) => page.getByRole("heading", { level: 1 });

/** Resizes the viewport and waits until the page has handled the resize. */
async function resize(page: Page, width: number, height = 900) {
  const handled = page.evaluate(
    () => new Promise((resolve) => window.addEventListener("resize", resolve, { once: true })),
  );
  await page.setViewportSize({ width, height });
  await handled;
}

describe("mobile-only overlay", () => {
  const DESKTOP = { viewport: { width: 1440, height: 900 }, isMobile: false, hasTouch: false };

  it("covers the app wider than 1280 px, and goes 15 s after the window is narrow enough", async () => {
    const context = await stack.newContext(DESKTOP);
    const page = await context.newPage();
    await page.clock.install();
    await page.goto("/");
    const overlay = page.getByRole("dialog", { name: "Site uniquement disponible sur mobile" });
    await eventually(() => overlay.isVisible()).toBe(true);
    expect(await overlay.textContent()).toContain("Veuillez consulter ce site depuis votre téléphone portable.");
    // The app beneath cannot be reached (inert: no focus, no clicks, hidden from assistive technologies).
    expect(await page.evaluate(() => document.getElementById("root")?.inert)).toBe(true);
    await snap(page, "shell-overlay-desktop");
    await expectAccessible(page);

    // Narrow enough (1280 is not wider than 1280): still there for 15 s, then removed.
    await resize(page, 1280);
    await page.clock.fastForward(14_000);
    expect(await overlay.isVisible()).toBe(true);
    await page.clock.fastForward(1_100);
    await eventually(() => overlay.count()).toBe(0);
    expect(await page.evaluate(() => document.getElementById("root")?.inert)).toBe(false);
    expect(await homeHeading(page).textContent()).toContain("cartes de fidélité");

    // Wider again: at once.
    await resize(page, 1281);
    await eventually(() => overlay.isVisible()).toBe(true);

    // Narrow, then wide again before the 15 s are up: the overlay stays.
    await resize(page, 390, 844);
    await page.clock.fastForward(10_000);
    await resize(page, 1440);
    await page.clock.fastForward(20_000);
    expect(await overlay.isVisible()).toBe(true);
    await context.close();
  });

  it("is absent on a phone", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.clock.install();
    await page.goto("/");
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    await page.clock.fastForward(16_000);
    expect(await page.getByRole("dialog", { name: "Site uniquement disponible sur mobile" }).count()).toBe(0);
    expect(await page.evaluate(() => document.getElementById("root")?.inert)).toBe(false);
    await context.close();
  });
});

describe("install prompt", () => {
  type PromptWindow = Window & { __prompted?: number };

  /** Plays the browser's beforeinstallprompt; returns whether the app kept it (preventDefault). */
  const offerInstall = (page: Page, outcome: "accepted" | "dismissed") =>
    page.evaluate((choice) => {
      const w = window as PromptWindow;
      w.__prompted = 0;
      const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
        prompt: async () => {
          w.__prompted = (w.__prompted ?? 0) + 1;
        },
        userChoice: Promise.resolve({ outcome: choice, platform: "web" }),
      });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    }, outcome);

  it("shows the card; dismissing sets the persistent flag and it never comes back", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    const card = page.getByRole("region", { name: "Installer Fidèle" });
    expect(await card.count()).toBe(0);

    expect(await offerInstall(page, "accepted")).toBe(true);
    await eventually(() => card.isVisible()).toBe(true);
    await snap(page, "shell-install-card");
    await expectAccessible(page);

    await card.getByRole("button", { name: "Non merci" }).click();
    await eventually(() => card.count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("fidele:hide-install"))).toBe("true");
    expect(await page.evaluate(() => (window as PromptWindow).__prompted)).toBe(0);

    await page.reload();
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    // The browser offers again: the app still keeps its own infobar away, but shows nothing.
    expect(await offerInstall(page, "accepted")).toBe(true);
    await page.waitForFunction(() => document.readyState === "complete");
    expect(await card.count()).toBe(0);
    await context.close();
  });

  it("accepting opens the browser's install dialog and removes the card", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    await offerInstall(page, "accepted");
    const card = page.getByRole("region", { name: "Installer Fidèle" });
    await card.getByRole("button", { name: "Installer" }).click();
    await eventually(() => card.count()).toBe(0);
    expect(await page.evaluate(() => (window as PromptWindow).__prompted)).toBe(1);
    // Accepted is not dismissed: no flag.
    expect(await page.evaluate(() => localStorage.getItem("fidele:hide-install"))).toBeNull();
    await context.close();
  });

  it("dismissing the browser's own dialog counts as dismissed", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    await offerInstall(page, "dismissed");
    const card = page.getByRole("region", { name: "Installer Fidèle" });
    await card.getByRole("button", { name: "Installer" }).click();
    await eventually(() => card.count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem("fidele:hide-install"))).toBe("true");
    await context.close();
  });
});

describe("colour mode", () => {
  const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));
  const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  it("keeps the chosen mode across a reload, applied before the app's code runs", async () => {
    const context = await stack.newContext({ colorScheme: "light" });
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    expect(await isDark(page)).toBe(false);
    const lightBackground = await bodyBackground(page);

    // Système → Clair → Sombre.
    await page.getByRole("button", { name: /^Thème : système/ }).click();
    await page.getByRole("button", { name: /^Thème : clair/ }).click();
    await eventually(() => isDark(page)).toBe(true);
    expect(await page.getByRole("button", { name: /^Thème : sombre/ }).count()).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem("fidele:colour-mode"))).toBe("dark");
    await snap(page, "shell-colour-dark");
    await expectAccessible(page);

    // Reload with the app's own code blocked: the saved mode is already on <html> (no flash of light colours).
    await page.route("**/assets/index-*.js", (route) => route.abort());
    await page.reload({ waitUntil: "domcontentloaded" });
    expect(await isDark(page)).toBe(true);
    expect(await bodyBackground(page)).not.toBe(lightBackground);
    await page.unroute("**/assets/index-*.js");

    // And with the app running.
    await page.reload();
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    expect(await isDark(page)).toBe(true);
    expect(await page.getByRole("button", { name: /^Thème : sombre/ }).count()).toBe(1);

    // Back to the system's setting (light here).
    await page.getByRole("button", { name: /^Thème : sombre/ }).click();
    await eventually(() => isDark(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem("fidele:colour-mode"))).toBe("system");
    await context.close();
  });

  it("follows the system in 'system' mode, and a route may force a mode", async () => {
    const context = await stack.newContext({ colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    expect(await isDark(page)).toBe(true);
    await snap(page, "shell-colour-system-dark");

    // Choose light; /scanner forces dark (RouteMeta.colorMode) without changing the choice.
    await page.evaluate(() => localStorage.setItem("fidele:colour-mode", "light"));
    await page.reload();
    await eventually(() => homeHeading(page).textContent()).toContain("cartes de fidélité");
    expect(await isDark(page)).toBe(false);
    await page.goto("/scanner");
    await eventually(() => isDark(page)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("fidele:colour-mode"))).toBe("light");
    await page.goBack();
    await eventually(() => isDark(page)).toBe(false);
    await context.close();
  });
});

describe("loading bar", () => {
  it("shows a 3 px bar at the top while a slow navigation loads", async () => {
    const user = await stack.createUser();
    const context = await stack.newContext();
    await stack.signIn(context, user.email, user.password);
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => homeHeading(page).textContent()).toContain("Bonjour");

    // Every script fetched from now on (the next page's lazy code) takes a while.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/assets/*.js", async (route) => {
      await held;
      await route.continue();
    });
    await page
      .getByRole("navigation", { name: "Navigation principale" })
      .getByRole("link", { name: "Boutiques" })
      .click();
    const bar = page.getByRole("progressbar", { name: "Chargement de la page" });
    await eventually(() => bar.isVisible()).toBe(true);
    const box = await bar.boundingBox();
    expect(box?.y).toBe(0);
    expect(box?.height).toBe(3);
    await snap(page, "shell-loading-bar");

    release();
    await page.waitForURL(`${stack.baseUrl}/boutiques`);
    await eventually(() => bar.count()).toBe(0);
    await context.close();
  });
});
