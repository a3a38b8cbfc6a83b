import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shopRoleLabel } from "../../src/domain/roles.ts";
import { addStaff, recordVisit } from "../../src/server/db/factories.ts";
import { eventually, expectAccessible, heading, snap, type Stack, startStack, unique } from "../setup/e2e.ts";
import { LONG_TEST } from "../setup/timing.ts";

/**
 * Issue 25 rows 4 and 5 at 390×844: the back-office menu shows what the person's role may open — the owner (and a
 * shop's manager) all of the shop, staff the counter's tools and their profile, the platform admin the console. Each
 * role's menu is walked entry by entry: every one opens a page that is neither an error (403, 404, « Aucune
 * boutique ») nor empty. The shopper's menus (the tab bar, the profile's « Mon compte ») and the visitor's tab bar
 * are walked the same way.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** The titles of the pages that say « not for you » or « nothing here ». */
const ERROR_TITLES = ["Accès refusé", "Accès réservé", "Aucune boutique", "Page introuvable", "Boutique introuvable"];

type Entry = { group: string; label: string; href: string };

/** Opens the menu drawer from `start` and reads its entries, group by group. */
async function readMenu(page: Page, start: string): Promise<Entry[]> {
  await page.goto(start);
  await page.getByRole("button", { name: "Ouvrir le menu" }).click();
  const drawer = page.getByRole("dialog");
  await drawer.waitFor();
  const entries: Entry[] = [];
  for (const group of await drawer.getByRole("region").all()) {
    const title = (await group.getAttribute("aria-label")) ?? "";
    for (const link of await group.getByRole("link").all()) {
      entries.push({
        group: title,
        label: (await link.textContent())?.trim() ?? "",
        href: (await link.getAttribute("href")) ?? "",
      });
    }
  }
  return entries;
}

/** Opens each entry from the drawer, as a person would, and checks the page it leads to says something real. */
async function walkMenu(page: Page, start: string, entries: Entry[]) {
  const seen: string[] = [];
  for (const entry of entries) {
    await page.goto(start);
    await page.getByRole("button", { name: "Ouvrir le menu" }).click();
    await page.getByRole("dialog").getByRole("link", { name: entry.label, exact: true }).click();
    await page.waitForURL((url) => url.pathname + url.search === entry.href);
    await eventually(() => heading(page)).not.toBe("");
    const title = await heading(page);
    expect(ERROR_TITLES, `${entry.label} (${entry.href}) opens « ${title} »`).not.toContain(title);
    // Loaded, not a skeleton; no failed read; something beyond the title.
    await eventually(() => page.locator("main [aria-busy='true']").count()).toBe(0);
    expect(await page.getByText("Une erreur inattendue est survenue").count(), entry.href).toBe(0);
    const text = ((await page.locator("main").textContent()) ?? "").replace(title, "").trim();
    expect(text.length, `${entry.href} is empty`).toBeGreaterThan(40);
    seen.push(`${entry.href} → ${title}`);
  }
  return seen;
}

/** A set of links on a page: a navigation landmark by name, or the page's banner. */
type Place = { role: "navigation"; name: string } | { role: "banner" };
const placeOf = (page: Page, place: Place) =>
  place.role === "navigation" ? page.getByRole("navigation", { name: place.name }) : page.getByRole("banner").first();

/** The links of `place` on `start`. */
async function readNav(page: Page, start: string, place: Place): Promise<Entry[]> {
  await page.goto(start);
  const nav = placeOf(page, place);
  await nav.waitFor();
  const entries: Entry[] = [];
  for (const link of await nav.getByRole("link").all()) {
    const label = ((await link.getAttribute("aria-label")) ?? (await link.innerText())).trim().split("\n")[0] ?? "";
    entries.push({ group: place.role, label, href: (await link.getAttribute("href")) ?? "" });
  }
  return entries;
}

/** Opens each link of `place` from `start`, by a tap; the page it leads to says something real. */
async function walkNav(page: Page, start: string, place: Place, entries: Entry[]) {
  const seen: string[] = [];
  for (const entry of entries) {
    await page.goto(start);
    await placeOf(page, place).getByRole("link", { name: entry.label }).first().click();
    await page.waitForURL((url) => url.pathname === entry.href);
    await eventually(() => heading(page)).not.toBe("");
    const title = await heading(page);
    expect(ERROR_TITLES, `${entry.label} (${entry.href}) opens « ${title} »`).not.toContain(title);
    await eventually(() => page.locator("main [aria-busy='true']").count()).toBe(0);
    expect(await page.getByText("Une erreur inattendue est survenue").count(), entry.href).toBe(0);
    const text = ((await page.locator("main").textContent()) ?? "").replace(title, "").trim();
    expect(text.length, `${entry.href} is empty`).toBeGreaterThan(40);
    seen.push(`${entry.href} → ${title}`);
  }
  return seen;
}

describe("issue 25 rows 4 and 5: menus by role", () => {
  it(
    "the visitor's header, the shopper's tab bar and their profile's menu: every entry opens a real page",
    async () => {
      // A visitor has no tab bar: the home's banner is where they go from.
      const visitor = await stack.newContext();
      const page = await visitor.newPage();
      const header = await readNav(page, "/", { role: "banner" });
      expect(header.map((e) => e.href)).toEqual(["/", "/login"]);
      await walkNav(page, "/", { role: "banner" }, header);
      expect(await page.getByRole("navigation", { name: "Navigation principale" }).count()).toBe(0);
      await visitor.close();

      const shopper = await stack.createUser({ firstName: "Inès" });
      const owner = await stack.createUser();
      const shop = await stack.createShop(owner.id, { name: `Primeur ${unique()}` });
      await recordVisit(stack.deps, { shopId: shop.id, userId: shopper.id, at: new Date() });
      const context = await stack.signedIn(shopper);
      const signed = await context.newPage();
      const tabBar = { role: "navigation", name: "Navigation principale" } as const;
      const tabs = await readNav(signed, "/faq", tabBar);
      expect(tabs.map((e) => e.href)).toEqual(["/", "/boutiques", "/cartes-de-fidelite", "/profil"]);
      await walkNav(signed, "/faq", tabBar, tabs);
      const accountMenu = { role: "navigation", name: "Mon compte" } as const;
      const account = await readNav(signed, "/profil", accountMenu);
      expect(account.map((e) => e.href)).toEqual([
        "/edit-profil",
        "/cartes-de-fidelite",
        "/recuperer",
        "/changer-mot-de-passe",
        "/protected",
      ]);
      await walkNav(signed, "/profil", accountMenu, account);
      await context.close();
    },
    LONG_TEST,
  );

  it(
    "a shop's manager (« Responsable ») has the owner's menu; every entry opens a real page",
    async () => {
      const owner = await stack.createUser();
      const shop = await stack.createShop(owner.id, { name: `Caviste ${unique()}` });
      const manager = await stack.createUser({ firstName: "Nour" });
      await addStaff(stack.deps, shop.id, manager.id, "admin");
      const context = await stack.signedIn(manager);
      const page = await context.newPage();
      const menu = await readMenu(page, "/admin");
      expect(menu.map((e) => e.href)).toContain("/admin/liste-clients");
      expect(menu.map((e) => e.href)).not.toContain("/admin/logs");
      const seen = await walkMenu(page, "/admin", menu);
      expect(seen).toHaveLength(menu.length);
      await context.close();
    },
    LONG_TEST,
  );

  it(
    "the owner's menu is the whole shop, no platform entry; every entry opens a real page",
    async () => {
      const owner = await stack.createUser({ firstName: "Odile" });
      await stack.createShop(owner.id, { name: `Épicerie ${unique()}` });
      const context = await stack.signedIn(owner);
      const page = await context.newPage();
      const menu = await readMenu(page, "/admin");
      await expectAccessible(page);
      await snap(page, "issue25-menu-owner");
      const groups = [...new Set(menu.map((e) => e.group))];
      expect(groups).toEqual([
        "Aujourd'hui",
        "Fidélité",
        "Clients",
        "Communication",
        "Jeux",
        "Ma boutique",
        "Équipe",
        "Mon compte",
      ]);
      expect(menu.map((e) => e.href)).toContain("/admin/creativcard");
      expect(menu.map((e) => e.href)).not.toContain("/admin/logs");
      expect(menu.map((e) => e.href)).not.toContain("/admin/push");
      expect(new Set(menu.map((e) => e.href)).size).toBe(menu.length);
      const seen = await walkMenu(page, "/admin", menu);
      expect(seen).toHaveLength(menu.length);
      await context.close();
    },
    LONG_TEST,
  );

  it("row 4: staff see only the counter's tools and their profile, which opens and names their role", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Fleuriste ${unique()}` });
    const staff = await stack.createUser({ firstName: "Léa" });
    await addStaff(stack.deps, shop.id, staff.id, "member");
    const context = await stack.signedIn(staff);
    const page = await context.newPage();
    const menu = await readMenu(page, "/manager");
    await expectAccessible(page);
    await snap(page, "issue25-menu-staff");
    expect(menu.map((e) => [e.label, e.href])).toEqual([
      ["Comptoir", "/manager"],
      ["Valider une récompense", "/validate-reward"],
      ["Code du comptoir", "/reader"],
      ["Mon profil", "/admin/monprofil"],
    ]);
    await walkMenu(page, "/manager", menu);

    // Her profile: her role in the shop, two-factor, no 403.
    await page.goto("/admin/monprofil");
    await eventually(() => heading(page)).toBe("Mon profil");
    const roles = page.getByRole("region", { name: "Mes rôles" });
    await eventually(() => roles.getByText(shop.name).isVisible()).toBe(true);
    expect(await roles.getByText(shopRoleLabel("member"), { exact: true }).count()).toBe(1);
    expect(await page.getByText("Double authentification", { exact: false }).count()).toBeGreaterThan(0);
    await expectAccessible(page);
    await snap(page, "issue25-row4-staff-profile");

    // An owner's page is still not hers.
    await page.goto("/admin/liste-clients");
    await eventually(() => heading(page)).toBe("Accès refusé");
    await context.close();
  }, LONG_TEST);

  it(
    "row 5: the platform admin's menu is the console (announcements included), no shop entry answering « Aucune boutique »",
    async () => {
      const admin = await stack.createUser({ email: `admin-${unique()}@test.fidele.local`, role: "admin" });
      const context = await stack.signedIn(admin);
      const page = await context.newPage();
      const menu = await readMenu(page, "/admin");
      await expectAccessible(page);
      await snap(page, "issue25-row5-admin-menu");
      expect(menu.map((e) => [e.label, e.href])).toEqual([
        ["Console", "/admin"],
        ["Boutiques", "/admin?vue=boutiques"],
        ["Comptes", "/admin?vue=comptes"],
        ["Journal", "/admin/logs"],
        ["Connectés", "/admin/connected"],
        ["Sessions", "/admin/sessions"],
        ["Annonces", "/admin/push"],
        ["Boîtes d'envoi", "/admin?vue=envois"],
        ["Mon profil", "/admin/monprofil"],
      ]);
      const seen = await walkMenu(page, "/admin", menu);
      expect(seen.filter((s) => s.includes("Aucune boutique"))).toEqual([]);
      // Each view of the console is a page of its own, and the menu marks where one is.
      await page.goto("/admin?vue=envois");
      await eventually(() => page.getByRole("region", { name: "Boîte d'envoi des courriels" }).isVisible()).toBe(true);
      await page.getByRole("button", { name: "Ouvrir le menu" }).click();
      const current = page.getByRole("dialog").locator("[aria-current='page']");
      expect(await current.textContent()).toBe("Boîtes d'envoi");
      await context.close();
    },
    LONG_TEST,
  );
});
