import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Guard, ROUTES, type RouteMeta } from "../../src/domain/routes.ts";
import { addStaff } from "../../src/server/db/factories.ts";
import { eventually, expectAccessible, snap, type Stack, startStack } from "../setup/e2e.ts";

/**
 * The shell's route table seen from a phone: guards (SPEC §6), the bottom tab bar
 * (SPEC §2) and the error pages, on the built app served by the real server.
 */
let stack: Stack;
type Account = { email: string; password: string };
let shopper: Account;
let owner: Account;
let staff: Account;
let admin: Account;

beforeAll(async () => {
  stack = await startStack();
  shopper = await stack.createUser({ firstName: "Inès" });
  const ownerUser = await stack.createUser({ firstName: "Omar" });
  owner = ownerUser;
  const shop = await stack.createShop(ownerUser.id, { name: "Boulangerie des Tests" });
  const staffUser = await stack.createUser({ firstName: "Sacha" });
  await addStaff(stack.deps, shop.id, staffUser.id);
  staff = staffUser;
  admin = await stack.createUser({ firstName: "Alice", role: "admin" });
});
afterAll(async () => {
  await stack?.close();
});

/** A concrete path for a route pattern ("/shop/:slug" → "/shop/exemple"). */
const pathOf = (pattern: string) => pattern.replace(/:[A-Za-z]+/g, "exemple");
const routesWith = (...guards: Guard[]) => ROUTES.filter((r) => guards.includes(r.guard));

/** Waits until the shell has decided: a page heading is shown (guards resolve after /api/accounts/me). */
async function settled(page: Page) {
  await page.locator("main h1").first().waitFor({ state: "visible" });
}

/**
 * Client-side navigation, as a link would do (one page load for many routes keeps the
 * suite fast), then waits until the shell has rendered that route: the layout sets the
 * route's title in the same commit as the guard's outcome.
 */
async function visit(page: Page, route: RouteMeta) {
  const path = pathOf(route.path);
  await page.evaluate((p) => {
    window.history.pushState({}, "", p);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  await page.waitForFunction((title) => document.title === title, `${route.title} · Fidèle`);
}

const FAQ = ROUTES.find((r) => r.path === "/faq")!;
const forbiddenHeading = (page: Page) => page.locator("main").getByRole("heading", { level: 1, name: "Accès refusé" });

/**
 * Visits each route; when two routes in a row share a title, through a neutral page
 * in between, so that no answer can be read off the previous route.
 */
async function expectAccess(page: Page, routes: RouteMeta[], expected: "allowed" | "forbidden") {
  let lastTitle = await page.title();
  for (const route of routes) {
    const title = `${route.title} · Fidèle`;
    if (title === lastTitle) await visit(page, FAQ);
    await visit(page, route);
    lastTitle = title;
    expect(new URL(page.url()).pathname, route.path).toBe(pathOf(route.path));
    expect(await forbiddenHeading(page).count(), route.path).toBe(expected === "forbidden" ? 1 : 0);
  }
}

describe("guards (SPEC §6)", () => {
  it(
    "sends an anonymous visitor of every guarded route to /login?redirect=<path>",
    async () => {
      const guarded = routesWith("auth", "staff", "owner", "admin");
      // SPEC §6 by name, so the list cannot silently shrink.
      const names = guarded.map((r) => r.path);
      for (const path of [
        "/admin/connected",
        "/admin/creativcard",
        "/admin/gestion-des-lots",
        "/admin/gestion-des-lots-2",
        "/admin/invitation",
        "/admin/liste-totale-clients",
        "/admin/points-double",
        "/jeu-concours-cajvb",
        "/review",
        "/admin",
        "/admin/validate-reward",
        "/admin/logs",
        "/admin/push",
      ]) {
        expect(names).toContain(path);
      }
      const context = await stack.newContext();
      const page = await context.newPage();
      // A document request first (what a link from an e-mail does)…
      await page.goto("/admin/points-double?from=mail");
      await page.waitForURL((url) => url.pathname === "/login");
      expect(new URL(page.url()).searchParams.get("redirect")).toBe("/admin/points-double?from=mail");
      await settled(page);
      expect(await page.locator("main h1").textContent()).toBe("Connexion");
      // …then every guarded route by in-app navigation.
      for (const route of guarded) {
        const path = `${pathOf(route.path)}?from=test`;
        await page.evaluate((p) => {
          window.history.pushState({}, "", p);
          window.dispatchEvent(new PopStateEvent("popstate"));
        }, path);
        await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("redirect") === path);
      }
      await context.close();
    },
  );

  it(
    "shows the French 403 page to a signed-in shopper on staff, owner and admin routes",
    async () => {
      const context = await stack.signedIn(shopper);
      const page = await context.newPage();
      const response = await page.goto("/admin/logs");
      expect(response?.status()).toBe(200);
      await eventually(() => forbiddenHeading(page).count()).toBe(1);
      await eventually(() => page.getByText("Cette page est réservée à d'autres comptes").isVisible()).toBe(true);
      expect(await page.getByRole("link", { name: "Retour à l'accueil" }).count()).toBe(1);
      await expectAccessible(page);
      await snap(page, "shell-403");
      await expectAccess(page, routesWith("staff", "owner", "admin"), "forbidden");
      await context.close();
    },
  );

  it(
    "lets a signed-in shopper into every auth route",
    async () => {
      const context = await stack.signedIn(shopper);
      const page = await context.newPage();
      await page.goto("/faq");
      await settled(page);
      // /create-profil moves a complete profile on by itself: checked apart.
      await expectAccess(
        page,
        routesWith("auth").filter((r) => r.path !== "/create-profil"),
        "allowed",
      );
      await context.close();
    },
  );

  it(
    "lets an owner into owner and staff routes, and shows 403 on admin-only routes",
    async () => {
      const context = await stack.signedIn(owner);
      const page = await context.newPage();
      await page.goto("/faq");
      await settled(page);
      await expectAccess(page, routesWith("owner", "staff"), "allowed");
      await expectAccess(page, routesWith("admin"), "forbidden");
      await context.close();
    },
  );

  it(
    "lets shop staff into staff routes but not into the owner's back-office",
    async () => {
      const context = await stack.signedIn(staff);
      const page = await context.newPage();
      await page.goto("/faq");
      await settled(page);
      await expectAccess(page, routesWith("staff"), "allowed");
      await expectAccess(page, routesWith("owner", "admin"), "forbidden");
      await context.close();
    },
  );

  it(
    "lets a platform admin into admin-only and owner routes",
    async () => {
      const context = await stack.signedIn(admin);
      const page = await context.newPage();
      await page.goto("/faq");
      await settled(page);
      await expectAccess(page, routesWith("admin", "owner"), "allowed");
      await context.close();
    },
  );

  it("brings the user back to the guarded page after signing in", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/dashboard?onglet=compte");
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/dashboard?onglet=compte");
    await page.getByLabel("Adresse e-mail").fill(shopper.email);
    await page.getByLabel("Mot de passe", { exact: true }).fill(shopper.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard");
    expect(new URL(page.url()).search).toBe("?onglet=compte");
    await eventually(() => page.locator("main h1").textContent()).toBe("Mon activité");
    await context.close();
  });

  it("sends a visitor to /login when fetching the user fails", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.route("**/api/accounts/me", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: '{"code":"INTERNAL","message":"Indisponible"}',
      }),
    );
    await page.goto("/dashboard");
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/dashboard");
    await context.close();
  });
});

describe("bottom tab bar (SPEC §2)", () => {
  const tabBar = (page: Page) => page.getByRole("navigation", { name: "Navigation principale" });

  it("is absent when signed out", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    for (const path of ["/", "/faq", "/boutiques"]) {
      await page.goto(path);
      await settled(page);
      expect(await tabBar(page).count(), path).toBe(0);
    }
    await context.close();
  });

  it("has exactly four tabs when signed in, the active one being the exact current path", async () => {
    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    await page.goto("/");
    await settled(page);
    await tabBar(page).waitFor();
    const links = tabBar(page).getByRole("link");
    expect(await links.allTextContents()).toEqual(["Accueil", "Boutiques", "Fidélité", "Profil"]);
    expect(await links.evaluateAll((els) => els.map((el) => el.getAttribute("href")))).toEqual([
      "/",
      "/boutiques",
      "/cartes-de-fidelite",
      "/profil",
    ]);

    const current = () => tabBar(page).locator('[aria-current="page"]').allTextContents();
    expect(await current()).toEqual(["Accueil"]);
    await snap(page, "shell-tabbar-home");

    for (const [name, path] of [
      ["Boutiques", "/boutiques"],
      ["Fidélité", "/cartes-de-fidelite"],
      ["Profil", "/profil"],
      ["Accueil", "/"],
    ] as const) {
      await tabBar(page).getByRole("link", { name }).click();
      await page.waitForURL((url) => url.pathname === path);
      await eventually(current).toEqual([name]);
    }

    // A footer route that is no tab's path: the bar shows, no tab is active (exact match only).
    await page.goto("/dashboard");
    await settled(page);
    await tabBar(page).waitFor();
    expect(await current()).toEqual([]);
    // "/" is not active on a deeper path either.
    await page.goto("/faq");
    await settled(page);
    expect(await current()).toEqual([]);
    await context.close();
  });

  it("is absent on a route whose metadata hides the footer", async () => {
    const hidden = ROUTES.filter((r) => r.showFooter === false && r.guard === "auth").map((r) => pathOf(r.path));
    expect(hidden).toContain("/inscription-boutique");
    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    for (const path of ["/inscription-boutique", "/scanner", "/validation-recompense/exemple"]) {
      await page.goto(path);
      await settled(page);
      expect(await tabBar(page).count(), path).toBe(0);
    }
    await context.close();
  });
});

describe("error pages", () => {
  it("answers an unknown path with HTTP 404 and the app's 404 page", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    const response = await page.goto("/cette-page-n-existe-pas?x=1");
    expect(response?.status()).toBe(404);
    await settled(page);
    expect(await page.locator("main h1").textContent()).toBe("Page introuvable");
    await eventually(() => page.title()).toBe("Page Not Found");
    expect(await page.getByText("Page not found: /cette-page-n-existe-pas", { exact: true }).count()).toBe(1);
    await page.getByRole("link", { name: "Retour à l'accueil" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await context.close();
  });

  it("issue 25 row 19: a 404 says « Page introuvable » in French, the technical line below, signed out and in; the API's 404 is French JSON", async () => {
    for (const account of [null, shopper]) {
      const context = account ? await stack.signedIn(account) : await stack.newContext();
      const page = await context.newPage();
      const response = await page.goto("/ce-chemin-n-existe-pas");
      expect(response?.status()).toBe(404);
      await settled(page);
      const heading = page.locator("main h1");
      expect(await heading.textContent()).toBe("Page introuvable");
      expect(await page.getByText("Page Not Found", { exact: true }).count()).toBe(0);
      // The technical line stays, below the heading.
      const line = page.getByText("Page not found: /ce-chemin-n-existe-pas", { exact: true });
      expect(await line.count()).toBe(1);
      const [headingBox, lineBox] = [await heading.boundingBox(), await line.boundingBox()];
      expect(lineBox!.y).toBeGreaterThan(headingBox!.y);
      if (account) await snap(page, "issue25-row19-404");
      // An unknown API path renders no page: its JSON says it in French.
      const api = await context.request.get(`${stack.baseUrl}/api/ce-chemin-n-existe-pas`);
      expect(api.status()).toBe(404);
      expect(api.headers()["content-type"]).toContain("application/json");
      expect(await api.json()).toEqual({ code: "NOT_FOUND", message: "Introuvable." });
      await context.close();
    }
  });

  it("gives known routes HTTP 200 and unknown nested paths 404", async () => {
    for (const [path, status] of [
      ["/", 200],
      ["/faq", 200],
      ["/shop/une-boutique", 200],
      ["/admin/logs", 200],
      ["/faq/plus", 404],
      ["/admin/a/b", 404],
      ["/blog", 404],
    ] as const) {
      const res = await fetch(`${stack.baseUrl}${path}`);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("content-type"), path).toContain("text/html");
    }
  });

  it("shows the 404 page on client-side navigation to an unknown path too, accessible, signed in", async () => {
    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    await page.goto("/");
    await settled(page);
    await page.evaluate(() => {
      window.history.pushState({}, "", "/nulle-part");
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
    await eventually(() => page.locator("main h1").textContent()).toBe("Page introuvable");
    await eventually(() => page.title()).toBe("Page Not Found");
    expect(await page.getByText("Page not found: /nulle-part").count()).toBe(1);
    await expectAccessible(page);
    await snap(page, "shell-404");
    await context.close();
  });

  it("titles other errors 'Internal Server Error', with a way home", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.route("**/api/content/blog/une-panne", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: '{"code":"INTERNAL","message":"Une erreur interne est survenue."}',
      }),
    );
    await page.goto("/blog/une-panne");
    await eventually(() => page.locator("main h1").first().textContent()).toBe("Internal Server Error");
    await eventually(() => page.title()).toBe("Internal Server Error");
    expect(await page.getByRole("link", { name: "Retour à l'accueil" }).count()).toBe(1);
    await expectAccessible(page);
    await snap(page, "shell-500");
    await context.close();
  });
});
