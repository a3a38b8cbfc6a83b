import { describe, expect, it } from "vitest";
import {
  checkAccess,
  type Guard,
  homeAfterSignIn,
  LAYOUT_DEFAULTS,
  matchRoute,
  ROUTES,
  type Viewer,
} from "./routes.ts";

// SPEC §2, copied by hand (not derived from ROUTES) so that a route dropped from the table fails here.
const SPEC_STATIC = [
  "/",
  "/login",
  "/signup",
  "/mot-de-passe-perdu",
  "/reset-password",
  "/change-password",
  "/changer-mot-de-passe",
  "/confirm",
  "/create-profil",
  "/edit-profil",
  "/faq",
  "/cgu",
  "/mentions-legales",
  "/politiques-de-confidentialite",
  "/offre",
  "/merci",
  "/vip",
  "/dashboard",
  "/notif",
  "/protected",
  "/validate-reward",
  "/boutique-a-proximite",
  "/boutiques",
  "/shop",
  "/cartes-de-fidelite",
  "/inscription-boutique",
  "/result-boutique",
  "/manager",
  "/reader",
  "/scanner",
  "/scanner-auth",
  // Issue 29: what a receipt's QR code opens, beyond SPEC §2.
  "/ticket",
  // Issue 29 item 6: the counter tablet, beyond SPEC §2.
  "/tablette",
  // Contest pages
  "/jeu-concours",
  "/jeu-concours-roulette",
  "/jeu-concours-cajvb",
  "/jeu-concours-1-an-giagia",
  "/jeux-concours-mabbam-giagia",
  "/jeux-concours-auth",
  // Other pages
  "/notifications",
  "/profil",
  "/review",
  // Issue 28: claiming a gift card or an imported balance, beyond SPEC §2.
  "/recuperer",
  // Issue 28: parrainage and review requests, beyond SPEC §2.
  "/parrainer",
  "/admin/avis",
  "/admin/parrainage",
  // Admin
  "/admin",
  "/admin/ajouter-un-reward",
  // Issue 27: the automations page, beyond SPEC §2.
  "/admin/automatisations",
  // Issue 29: API keys, webhooks, receipt key, beyond SPEC §2.
  "/admin/caisse",
  "/admin/connected",
  "/admin/creativcard",
  "/admin/edit-societe",
  "/admin/envoyer-un-message",
  "/admin/gestion-des-lots",
  "/admin/gestion-des-lots-2",
  "/admin/horaires",
  // Issue 28: prepaid products and the import of former customers, beyond SPEC §2.
  "/admin/import-clients",
  "/admin/prepaye",
  "/admin/invitation",
  "/admin/jeux-concours",
  "/admin/liste-clients",
  "/admin/liste-scans",
  "/admin/liste-totale-clients",
  "/admin/logs",
  "/admin/ma-boutique",
  "/admin/message",
  "/admin/monprofil",
  "/admin/newsletter",
  "/admin/points-double",
  "/admin/push",
  "/admin/recompenses",
  "/admin/scans",
  "/admin/sessions",
  "/admin/test-sms",
  "/admin/validate-reward",
];

// SPEC §2 "Routes with parameters": pattern and an example path.
const SPEC_PARAMETERISED: [pattern: string, example: string][] = [
  ["/accept-invitation/:token", "/accept-invitation/3f9c2a7e-token"],
  ["/blog/:slug", "/blog/pourquoi-la-carte-papier-ne-suffit-plus"],
  ["/boutique/:scanUid", "/boutique/k8Zq2"],
  ["/messages/:id", "/messages/42"],
  ["/presentation/:slug", "/presentation/fidele-en-cinq-minutes"],
  ["/profile/:id", "/profile/usr_123"],
  ["/reward/:rewardSlug", "/reward/cafe-offert"],
  ["/shop/:slug", "/shop/boulangerie-du-marche"],
  ["/validation-recompense/:id", "/validation-recompense/9"],
  ["/admin/:product", "/admin/catalogue"],
  ["/parrainage/:code", "/parrainage/k7mq2x9pbd"],
];

const anonymous: Viewer = { isSignedIn: false, isAdmin: false, isOwner: false, isStaff: false };
const shopper: Viewer = { isSignedIn: true, isAdmin: false, isOwner: false, isStaff: false };
const staff: Viewer = { isSignedIn: true, isAdmin: false, isOwner: false, isStaff: true };
const owner: Viewer = { isSignedIn: true, isAdmin: false, isOwner: true, isStaff: true };
const admin: Viewer = { isSignedIn: true, isAdmin: true, isOwner: false, isStaff: false };

describe("matchRoute", () => {
  it.each(SPEC_STATIC)("matches the static route %s to itself", (path) => {
    expect(matchRoute(path)?.path).toBe(path);
  });

  it.each(SPEC_PARAMETERISED)("matches %s for %s", (pattern, example) => {
    expect(matchRoute(example)?.path).toBe(pattern);
  });

  it("prefers a static back-office route over /admin/:product", () => {
    expect(matchRoute("/admin/logs")?.path).toBe("/admin/logs");
    expect(matchRoute("/admin/push")?.path).toBe("/admin/push");
    expect(matchRoute("/admin/validate-reward")?.path).toBe("/admin/validate-reward");
  });

  it("ignores a trailing slash and the query string", () => {
    expect(matchRoute("/faq/")?.path).toBe("/faq");
    expect(matchRoute("/login?redirect=%2Fdashboard")?.path).toBe("/login");
    expect(matchRoute("/blog/mon-article?ref=accueil")?.path).toBe("/blog/:slug");
    expect(matchRoute("")?.path).toBe("/");
  });

  it.each([
    "/nope",
    "/faqs",
    "/blog",
    "/blog/",
    "/blog/a/b",
    "/presentation",
    "/shop/a/b",
    "/admin/logs/extra",
    "/admin/a/b",
    "/FAQ",
    "//faq",
    "/mentions-legales.html",
  ])("does not match the unknown path %s", (path) => {
    expect(matchRoute(path)).toBeUndefined();
  });

  it("escapes the pattern so a dot or a regex character is literal", () => {
    expect(matchRoute("/fa.")).toBeUndefined();
    expect(matchRoute("/admin/gestion-des-lots-2")?.path).toBe("/admin/gestion-des-lots-2");
  });

  it("registers nothing beyond SPEC §2 and every route exactly once", () => {
    const spec = new Set([...SPEC_STATIC, ...SPEC_PARAMETERISED.map(([p]) => p)]);
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(new Set(paths)).toEqual(spec);
  });

  it("gives every route a French title", () => {
    for (const route of ROUTES) expect(route.title.trim().length, route.path).toBeGreaterThan(0);
  });
});

describe("guards of SPEC §6", () => {
  const guardOf = (path: string): Guard | undefined => matchRoute(path)?.guard;

  it.each([
    "/admin/connected",
    "/admin/creativcard",
    "/admin/gestion-des-lots",
    "/admin/gestion-des-lots-2",
    "/admin/invitation",
    "/admin/liste-totale-clients",
    "/admin/points-double",
    "/jeu-concours-cajvb",
    "/review",
  ])("%s requires at least a signed-in user", (path) => {
    const guard = guardOf(path);
    expect(guard).toBeDefined();
    expect(guard).not.toBe("public");
    expect(checkAccess(guard!, anonymous)).toBe("login");
  });

  it.each(["/admin", "/admin/validate-reward"])("%s requires an owner", (path) => {
    expect(guardOf(path)).toBe("owner");
  });

  it.each(["/admin/logs", "/admin/push"])("%s requires a platform admin", (path) => {
    expect(guardOf(path)).toBe("admin");
  });

  it("leaves the public content pages open", () => {
    for (const path of [
      "/",
      "/faq",
      "/cgu",
      "/mentions-legales",
      "/politiques-de-confidentialite",
      "/offre",
      "/merci",
    ]) {
      expect(guardOf(path), path).toBe("public");
    }
    expect(guardOf("/blog/un-article")).toBe("public");
    expect(guardOf("/presentation/une-presentation")).toBe("public");
  });

  it("guards the shopper's own pages with auth", () => {
    for (const path of [
      "/dashboard",
      "/protected",
      "/profil",
      "/cartes-de-fidelite",
      "/notifications",
      "/messages/1",
    ]) {
      expect(guardOf(path), path).toBe("auth");
    }
  });

  it("puts every back-office page behind owner or admin, but one's own profile, which every member opens (issue 25 row 4)", () => {
    for (const route of ROUTES.filter((r) => r.path.startsWith("/admin") && r.path !== "/admin/monprofil")) {
      expect(["owner", "admin"], route.path).toContain(route.guard);
    }
    expect(ROUTES.find((r) => r.path === "/admin/monprofil")?.guard).toBe("staff");
  });
});

describe("checkAccess", () => {
  // Rows: guard; columns: anonymous, shopper, staff, owner, admin.
  const matrix: [Guard, string[]][] = [
    ["public", ["allow", "allow", "allow", "allow", "allow"]],
    ["auth", ["login", "allow", "allow", "allow", "allow"]],
    ["staff", ["login", "forbidden", "allow", "allow", "allow"]],
    ["owner", ["login", "forbidden", "forbidden", "allow", "allow"]],
    ["admin", ["login", "forbidden", "forbidden", "forbidden", "allow"]],
  ];
  const viewers = { anonymous, shopper, staff, owner, admin };

  it.each(matrix)("%s guard", (guard, expected) => {
    expect(Object.values(viewers).map((v) => checkAccess(guard, v))).toEqual(expected);
  });
});

describe("homeAfterSignIn", () => {
  it("issue 25 row 16: sends an owner to the back office, everyone else home", () => {
    expect(homeAfterSignIn(owner)).toBe("/admin");
    for (const viewer of [shopper, staff, anonymous]) expect(homeAfterSignIn(viewer)).toBe("/");
  });
});

describe("layout metadata", () => {
  const layoutOf = (path: string) => ({ ...LAYOUT_DEFAULTS, ...matchRoute(path) });

  it("hides the footer on back-office pages and shows the admin bar", () => {
    for (const route of ROUTES.filter((r) => r.path.startsWith("/admin"))) {
      const layout = layoutOf(route.path.replace(":product", "x"));
      expect(layout.showFooter, route.path).toBe(false);
      expect(layout.showAdminbar, route.path).toBe(true);
    }
  });

  it("allows the footer on the tab bar's own routes", () => {
    for (const path of ["/", "/boutiques", "/cartes-de-fidelite", "/profil"])
      expect(layoutOf(path).showFooter, path).toBe(true);
  });

  it("hides the footer on focused account forms", () => {
    for (const path of ["/login", "/signup", "/mot-de-passe-perdu"])
      expect(layoutOf(path).showFooter, path).toBe(false);
  });
});
