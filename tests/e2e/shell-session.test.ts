import { eq } from "drizzle-orm";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profiles } from "../../src/server/db/schema/app.ts";
import { eventually, type Stack, startStack } from "../setup/e2e.ts";

/** Session upkeep and the last_seen heartbeat (issue 3, item 7; SPEC §4, §7.1, §9). */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function signedInPage(
  options: { clock?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; userId: string }> {
  const user = await stack.createUser();
  const context = await stack.newContext();
  await stack.signIn(context, user.email, user.password);
  const page = await context.newPage();
  if (options.clock) await page.clock.install();
  return { context, page, userId: user.id };
}

const lastSeenOf = async (userId: string) => {
  const [row] = await stack.deps.db
    .select({ lastSeen: profiles.lastSeen })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row?.lastSeen ?? null;
};
const setLastSeen = (userId: string, value: Date | null) =>
  stack.deps.db.update(profiles).set({ lastSeen: value }).where(eq(profiles.id, userId));

describe("last_seen heartbeat", () => {
  it("writes last_seen at start, then every 60 s while the app is open", async () => {
    const { context, page, userId } = await signedInPage({ clock: true });
    // Signing in touched it; start from nothing to see the app's own beat.
    await setLastSeen(userId, null);
    await page.goto("/");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Bonjour");
    await eventually(() => lastSeenOf(userId)).not.toBeNull();

    const longAgo = new Date("2024-01-01T00:00:00Z");
    await setLastSeen(userId, longAgo);
    const beat = page.waitForRequest((r) => r.url().endsWith("/api/accounts/heartbeat") && r.method() === "POST");
    await page.clock.fastForward(60_000);
    await beat;
    await eventually(async () => (await lastSeenOf(userId))?.getTime()).toBeGreaterThan(longAgo.getTime());
    await context.close();
  });

  it("sends nothing for a visitor", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    const beats: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/accounts/heartbeat")) beats.push(r.url());
    });
    await page.clock.install();
    await page.goto("/");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("cartes de fidélité");
    await page.clock.fastForward(61_000);
    expect(beats).toEqual([]);
    await context.close();
  });
});

describe("session upkeep", () => {
  const isSessionRead = (url: string) => url.endsWith("/api/auth/get-session");
  const showTabAgain = (page: Page) => page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));

  it("reads the session when the tab becomes visible again, and reloads when that fails", async () => {
    const { context, page } = await signedInPage();
    await page.goto("/");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Bonjour");

    // Visible again: the session is read, then the user refreshed.
    const sessionRead = page.waitForRequest((r) => isSessionRead(r.url()));
    const meRead = page.waitForRequest((r) => r.url().endsWith("/api/accounts/me"));
    await showTabAgain(page);
    expect((await (await sessionRead).response())?.status()).toBe(200);
    await meRead;

    // The session cannot be read: a warning, and the page reloads.
    await page.route("**/api/auth/get-session", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ code: "INTERNAL", message: "indisponible" }),
      }),
    );
    const warning = page.waitForEvent(
      "console",
      (m) => m.type() === "warning" && m.text().startsWith("Erreur de session:"),
    );
    const reloaded = page.waitForEvent("load");
    await showTabAgain(page);
    await warning;
    await reloaded;
    await page.unroute("**/api/auth/get-session");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Bonjour");
    await context.close();
  });

  it("reads the session when the network comes back, and reloads when that fails", async () => {
    const { context, page } = await signedInPage();
    await page.goto("/");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Bonjour");

    const sessionRead = page.waitForRequest((r) => isSessionRead(r.url()));
    const meRead = page.waitForResponse((r) => r.url().endsWith("/api/accounts/me"));
    await context.setOffline(true);
    await context.setOffline(false);
    expect((await (await sessionRead).response())?.status()).toBe(200);
    await meRead;

    await page.route("**/api/auth/get-session", (route) => route.abort("connectionreset"));
    const warning = page.waitForEvent(
      "console",
      (m) => m.type() === "warning" && m.text().startsWith("Erreur de connexion:"),
    );
    const reloaded = page.waitForEvent("load");
    await context.setOffline(true);
    await context.setOffline(false);
    await warning;
    await reloaded;
    await context.close();
  });

  it("signs the app out when the session has ended elsewhere", async () => {
    const { context, page } = await signedInPage();
    await page.goto("/cartes-de-fidelite");
    await eventually(() => page.url()).toBe(`${stack.baseUrl}/cartes-de-fidelite`);
    // The session is revoked from another device (here: its cookie is cleared).
    await context.clearCookies();
    await showTabAgain(page);
    await page.waitForURL(/\/login\?redirect=%2Fcartes-de-fidelite$/);
    await context.close();
  });
});
