import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE_VIEWS } from "../../src/client/components/back-office/menu.ts";
import type { WeeklyHours } from "../../src/domain/loyalty/hours.ts";
import { checkAccess, ROUTES, type Viewer } from "../../src/domain/routes.ts";
import { addStaff, createReward, createShop, grantPoints, recordVisit } from "../../src/server/db/factories.ts";
import { doublePointsPeriods, shops, vipTiers } from "../../src/server/db/schema/index.ts";
import type { ShopAccess } from "../../src/server/lib/shop-access.ts";
import { createContest, scheduleContest } from "../../src/server/modules/contests/contests.service.ts";
import { spinWheel } from "../../src/server/modules/contests/entries.service.ts";
import { createLot } from "../../src/server/modules/contests/lots.service.ts";
import { createMessage } from "../../src/server/modules/messages/compose.service.ts";
import { redeem } from "../../src/server/modules/rewards/redemptions.service.ts";
import { accessibilityViolations, eventually, type Stack } from "./e2e.ts";
import { scaled } from "./timing.ts";

/**
 * Issue 12 and issue 25 row 17, the sweep of every route of SPEC §2 (the route table in src/domain/routes.ts, not a
 * hand-kept list) for each role that may open it, in a world where the pages have content (empty pages hide
 * violations): the owner runs two shops (the shop pickers show), one with opening hours (two ranges a day: rows with
 * a delete button at 320 px), rewards, VIP levels, a double-points period, an open draw and an open wheel; the staff
 * member works for both; the shopper has a card there with a reward ready, a reserved reward, a won lot and a
 * message in the inbox. On each route: no sideways scroll at 320 or 390 px; axe (at 390 px) finds no serious or
 * critical violation, every piece of the page sits inside a landmark (« region »), and a control's accessible name
 * starts with its visible label (« label-content-name-mismatch », WCAG 2.5.3, in every axe run of the suites). One
 * page per role, moved from route to route by the app's own router (a history entry and a popstate); one test per
 * route (sweepRoutes).
 */

export type SweepRole = "anonymous" | "shopper" | "staff" | "owner" | "admin";

type Person = { id: string; email: string; password: string };

export type SweepWorld = {
  people: Record<Exclude<SweepRole, "anonymous">, Person>;
  shopSlug: string;
  scanUid: string;
  rewardSlug: string;
  messageId: string;
  redemptionId: string;
};

const DAY = 86_400_000;
const tag = () => randomUUID().slice(0, 4);

/** The shops, people and content every role's sweep walks through. */
export async function buildSweepWorld(stack: Stack): Promise<SweepWorld> {
  const { deps } = stack;
  const owner = await stack.createUser({ firstName: "Odile", lastName: "Marchand" });
  // Two ranges a day: the hours page lists them with their delete buttons.
  const weeklyHours: WeeklyHours = Array.from({ length: 7 }, () => [
    { open: "08:00", close: "12:30" },
    { open: "14:00", close: "19:00" },
  ]);
  const shop = await createShop(deps, {
    ownerId: owner.id,
    name: `Boulangerie du Marché ${tag()}`,
    weeklyHours,
    rules: { mode: "stamps", stampsGoal: 10, cooldownMinutes: 240, dailyCap: 2 },
  });
  await deps.db
    .update(shops)
    .set({ description: "Pain au levain cuit sur place, viennoiseries pur beurre et pâtisseries de saison." })
    .where(eq(shops.id, shop.id));
  const second = await createShop(deps, {
    ownerId: owner.id,
    name: `Pâtisserie des Halles ${tag()}`,
    category: "cafe",
    rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 120, dailyCap: 3 },
  });
  const reward = await createReward(deps, {
    shopId: shop.id,
    title: "Café offert",
    cost: 3,
    description: "Un café au comptoir.",
  });
  await createReward(deps, { shopId: shop.id, title: "Baguette tradition offerte", cost: 10, position: 1 });
  await createReward(deps, { shopId: second.id, title: "Éclair au chocolat", cost: 50 });
  await deps.db.insert(vipTiers).values([
    { shopId: shop.id, name: "Bronze", threshold: 5, multiplier: 1 },
    { shopId: shop.id, name: "Or", threshold: 30, multiplier: 2 },
  ]);
  await deps.db.insert(doublePointsPeriods).values({
    shopId: shop.id,
    label: "Mercredi gourmand",
    weekdays: [3],
    startTime: "15:30",
    endTime: "19:30",
    multiplier: 2,
  });

  const staff = await stack.createUser({ firstName: "Léa", lastName: "Girard" });
  await addStaff(deps, shop.id, staff.id, "member");
  await addStaff(deps, second.id, staff.id, "member");

  // The shopper: a month of visits, a reward ready and one on its way, a reserved reward.
  const shopper = await stack.createUser({ firstName: "Inès", lastName: "Bernard" });
  for (const days of [20, 9, 2])
    await recordVisit(deps, { shopId: shop.id, userId: shopper.id, at: new Date(Date.now() - days * DAY) });
  await recordVisit(deps, { shopId: second.id, userId: shopper.id, at: new Date(Date.now() - 3 * DAY), delta: 10 });
  await grantPoints(deps, { shopId: shop.id, userId: shopper.id, points: 4 });
  const { redemption } = await redeem(deps.database, shopper.id, { rewardId: reward.id, idempotencyKey: randomUUID() });

  // Games: an open draw and an open wheel the shopper has won at.
  const access: ShopAccess = { shopId: shop.id, userId: owner.id, role: "owner", level: "owner" };
  const lot = (name: string, quantity: number) =>
    createLot(deps.db, access, {
      name,
      description: null,
      photo: null,
      valueCents: 500,
      quantity,
      handover: "counter",
      points: null,
      claimDays: 15,
    });
  const tarte = await lot("Tarte aux fruits", 3);
  const croissant = await lot("Croissant offert", 40);
  const open = {
    startsAt: new Date(Date.now() - DAY),
    endsAt: new Date(Date.now() + 30 * DAY),
    eligibility: "confirmed" as const,
    entriesPerPerson: 1,
    spinPeriod: "day" as const,
    description: null,
  };
  const draw = await createContest(deps.db, access, {
    ...open,
    kind: "draw",
    title: "Grand tirage du Marché",
    description: "Trois tartes de saison à gagner.",
    prizes: [{ lotId: tarte.id, quantity: 3, oddsBp: 0 }],
  });
  const wheel = await createContest(deps.db, access, {
    ...open,
    kind: "wheel",
    title: "La roue du Marché",
    prizes: [{ lotId: croissant.id, quantity: 40, oddsBp: 10_000 }],
  });
  for (const c of [draw, wheel]) await scheduleContest(deps.db, access, c.id, stack.baseUrl);
  await spinWheel(deps.db, { userId: shopper.id, deviceId: null, network: null }, wheel.id, false);

  // A message from the shop, in the shopper's inbox.
  const messageId = await createMessage(
    deps,
    { kind: "shop", access },
    {
      title: "Croissants offerts samedi",
      body: "Un croissant offert pour tout pain acheté ce samedi.",
      push: false,
      segment: { kind: "all" },
    },
  );

  const admin = await stack.createUser({ firstName: "Ada", lastName: "Lovelace", role: "admin" });
  return {
    people: { owner, staff, shopper, admin },
    shopSlug: shop.slug,
    scanUid: shop.scanUid,
    rewardSlug: reward.slug,
    messageId,
    redemptionId: redemption.id,
  };
}

/** A route's pattern with the world's values (an unknown one shows the 404 page: measured too). */
function pathOf(pattern: string, w: SweepWorld) {
  return pattern
    .replace(":scanUid", w.scanUid)
    .replace(":rewardSlug", w.rewardSlug)
    .replace("/shop/:slug", `/shop/${w.shopSlug}`)
    .replace("/blog/:slug", "/blog/bien-choisir-ses-recompenses")
    .replace("/presentation/:slug", "/presentation/fidele-en-cinq-minutes")
    .replace("/messages/:id", `/messages/${w.messageId}`)
    .replace("/validation-recompense/:id", `/validation-recompense/${w.redemptionId}`)
    .replace("/profile/:id", `/profile/${w.people.shopper.id}`)
    .replace("/admin/:product", `/admin/${w.rewardSlug}`)
    .replace(":token", "invitation-inconnue");
}

const VIEWERS: Record<SweepRole, Viewer> = {
  anonymous: { isSignedIn: false, isAdmin: false, isOwner: false, isStaff: false },
  shopper: { isSignedIn: true, isAdmin: false, isOwner: false, isStaff: false },
  staff: { isSignedIn: true, isAdmin: false, isOwner: false, isStaff: true },
  owner: { isSignedIn: true, isAdmin: false, isOwner: true, isStaff: false },
  admin: { isSignedIn: true, isAdmin: true, isOwner: false, isStaff: false },
};

/**
 * The route patterns a role may open, and one it may not (the sign-in page or the « Accès refusé » page it leads to
 * is a page of that role too). Patterns, not paths: the tests are declared before the world exists; `pathOf` fills
 * in the world's ids when a test runs.
 */
export function routePatternsFor(role: SweepRole): string[] {
  const viewer = VIEWERS[role];
  const allowed = ROUTES.filter((r) => checkAccess(r.guard, viewer) === "allow").map((r) => r.path);
  // The platform console's views are pages of their own in the admin's menu (its lists of shops, accounts, e-mails).
  const views = role === "admin" ? CONSOLE_VIEWS.map((view) => `/admin?vue=${view}`) : [];
  const refused = ROUTES.find((r) => checkAccess(r.guard, viewer) !== "allow");
  return [...allowed, ...views, ...(refused ? [refused.path] : [])];
}

const WIDTHS = [320, 390] as const;

/** Issue 12, item 5: wording that must not come back, looked for in every screen's text. */
const WRONG_TEXT = [
  /Vos 1 (tampon|point) sont/,
  /\b1 (tampon|point) réservés/,
  /en tant que [aeéiouy]/i,
  /telles qu'au/,
  /appareil [0-9a-f]{8}\b/,
  /\b1 (récompenses|cartes|passages)\b/,
];

/**
 * The page's API reads and code loads in flight (live streams left out: they stay open), so that a route is measured
 * with its data, not as a skeleton.
 */
function inFlight(page: Page) {
  const pending = new Set<object>();
  const counts = (r: { resourceType(): string }) => ["fetch", "xhr", "script", "image"].includes(r.resourceType());
  page.on("request", (r) => {
    if (counts(r)) pending.add(r);
  });
  const done = (r: object) => pending.delete(r);
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return () => pending.size;
}

/** Moves the app to `path` the way a link does, then waits for the page to settle (short waits). */
async function visit(page: Page, path: string, pending: () => number) {
  await page.evaluate((to) => {
    history.pushState(null, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  // Best effort, each wait: some pages keep a busy region or poll; the measure is taken after the waits either way.
  await page
    .waitForFunction(
      () => !document.querySelector('[aria-busy="true"]') && document.querySelector("main, h1") !== null,
      null,
      { timeout: scaled(3_000) },
    )
    .catch(() => {});
  const until = Date.now() + scaled(3_000);
  while (pending() > 0 && Date.now() < until) await page.waitForTimeout(50);
  await page.waitForTimeout(120);
}

async function scrollWidthAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 844 });
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(document.documentElement.scrollWidth))),
      ),
  );
}

/** Checks a page says what it must for this role (its data may come after the settle wait, which is best effort). */
async function checkSayings(page: Page, role: SweepRole, path: string) {
  const pageText = () => page.evaluate(() => document.body.innerText);
  // One name per role: the owner is « Propriétaire » on the profile as in the team (not « Gérant »).
  if (role === "owner" && path === "/profil") await eventually(pageText).toContain("Propriétaire");
  // The platform admin is told the legal notice still shows placeholders (the stack sets no LEGAL_*).
  if (role === "admin" && path === "/admin")
    await eventually(pageText).toContain("Les mentions légales affichent encore des valeurs d'exemple");
  // /confirm opened without the e-mail's link does not claim the address is confirmed.
  if (role === "anonymous" && path === "/confirm")
    await eventually(pageText).toContain("Ouvrez le lien reçu par e-mail");
  // /result-boutique congratulates only the owner of a shop it names.
  if (role === "shopper" && path === "/result-boutique") {
    await eventually(pageText).toContain("Aucune boutique créée ici");
    expect(await pageText()).not.toContain("Votre boutique est créée");
  }
  // The world's content is on the pages that show it (the sweep measures full pages, not empty ones).
  if (role === "shopper" && path === "/cartes-de-fidelite")
    await eventually(pageText).toContain("Boulangerie du Marché");
  if (role === "shopper" && path === "/notifications")
    await eventually(pageText).toContain("Croissants offerts samedi");
  if (role === "owner" && path === "/admin/horaires") await eventually(pageText).toContain("14 h 00 – 19 h 00");
}

/** One role's page, signed in, on the app: moved from route to route by the sweep's tests. */
type SweepPage = { page: Page; pending: () => number; close: () => Promise<void> };

async function openSweepPage(stack: Stack, role: SweepRole, w: SweepWorld, colorScheme: "light" | "dark") {
  const context = await stack.newContext({ colorScheme });
  if (role !== "anonymous") {
    const person = w.people[role];
    await stack.signIn(context, person.email, person.password);
  }
  const page = await context.newPage();
  const pending = inFlight(page);
  await page.goto("/");
  return { page, pending, close: () => context.close() } satisfies SweepPage;
}

/** What is wrong on one route (empty when the page is right): too wide, wrong wording, inaccessible. */
async function checkRoute(sweep: SweepPage, role: SweepRole, path: string, dark: boolean): Promise<string[]> {
  const { page } = sweep;
  const found: string[] = [];
  await visit(page, path, sweep.pending);
  const text = await page.evaluate(() => document.body.innerText);
  for (const wrong of WRONG_TEXT) if (wrong.test(text)) found.push(`wording: ${wrong}`);
  await checkSayings(page, role, path);
  // Dark: only colours differ from the light sweep's pages (same structure, same widths), so only contrast is
  // checked again; a full axe run and the widths were 40 % more sweep for nothing new.
  const axeOptions = dark ? { onlyRules: ["color-contrast", "link-in-text-block"] } : { alsoRules: ["region"] };
  let violations = await accessibilityViolations(page, axeOptions);
  // A page still settling (its data landing after the best-effort waits) can show a passing state: what is wrong
  // stays wrong a second later, so only what is found twice counts.
  if (violations.length > 0) {
    await page.waitForTimeout(1_000);
    violations = await accessibilityViolations(page, axeOptions);
  }
  for (const v of violations) found.push(`inaccessible: ${v}`);
  if (dark) return found;
  for (const width of WIDTHS) {
    const scrollWidth = await scrollWidthAt(page, width);
    if (scrollWidth > width) found.push(`wide: ${new URL(page.url()).pathname} at ${width} px: ${scrollWidth} px`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  return found;
}

/**
 * Declares the sweep of every route `role` may open (`only`: those patterns kept), one test per route, on one page
 * opened before them and moved from route to route. Each route is a test of its own with the suite's per-test limit:
 * a busy machine makes the sweep slower, never a timeout of the whole role (one test for ~80 routes once ran past its
 * 10 minutes on a loaded CI machine), and a failure names its route. `ready` gives the file's stack and world, made
 * in its beforeAll (which runs before this one's).
 */
export function sweepRoutes(
  ready: () => { stack: Stack; world: SweepWorld },
  role: SweepRole,
  options: { colorScheme?: "light" | "dark"; only?: (pattern: string) => boolean } = {},
) {
  const colorScheme = options.colorScheme ?? "light";
  let sweep: SweepPage | undefined;
  beforeAll(async () => {
    const { stack, world } = ready();
    sweep = await openSweepPage(stack, role, world, colorScheme);
  });
  afterAll(async () => {
    await sweep?.close();
  });
  for (const pattern of routePatternsFor(role).filter(options.only ?? (() => true)))
    it(`${role}${colorScheme === "dark" ? ", dark" : ""}: ${pattern}`, async () => {
      if (!sweep) throw new Error("the sweep's page did not open (see beforeAll)");
      expect(await checkRoute(sweep, role, pathOf(pattern, ready().world), colorScheme === "dark")).toEqual([]);
    });
}
