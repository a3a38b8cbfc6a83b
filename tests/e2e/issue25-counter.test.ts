import { eq, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortCodeOf } from "../../src/domain/loyalty/short-code.ts";
import { addStaff } from "../../src/server/db/factories.ts";
import { scans, shops } from "../../src/server/db/schema/index.ts";
import { tokenFor } from "../api/shops-helpers.ts";
import {
  eventually,
  expectAccessible,
  heading,
  snap,
  type Stack,
  startStack,
  unique,
  wheelLabelTurns,
} from "../setup/e2e.ts";

/**
 * Issue 25 at 390×844: a suspended shop says so on every path (row 2), the wheel knows it was played before the
 * tap (row 3), a contest win reaches the inbox and the home (row 7).
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function typeShortCode(page: Page, shopId: string) {
  await page.goto("/scanner");
  const field = page.getByLabel(
    "Tapez le code de 6 caractères affiché sous le QR code du comptoir (ou collez son lien).",
  );
  await field.waitFor();
  const { token } = await tokenFor(stack.deps.db, shopId);
  await field.fill(shortCodeOf(token)!.toLowerCase());
  await page.getByRole("button", { name: "Valider le code" }).click();
}

describe("issue 25 row 2: a suspended shop", () => {
  it("issue 25 row 2: the shopper's typed code says « Boutique suspendue » like the QR code, and the counter shows no code but a full-screen message; an active shop's shopper and staff see neither", async () => {
    // Both shops exist before the first short code is typed (the code index of a step is built once).
    const owner = await stack.createUser();
    const suspended = await stack.createShop(owner.id, { name: `Primeur ${unique()}` });
    const active = await stack.createShop(owner.id, { name: `Fromager ${unique()}` });
    await stack.deps.db
      .update(shops)
      .set({ status: "suspended", suspendedAt: new Date() })
      .where(eq(shops.id, suspended.id));
    const staff = await stack.createUser();
    await addStaff(stack.deps, suspended.id, staff.id, "member");
    const otherStaff = await stack.createUser();
    await addStaff(stack.deps, active.id, otherStaff.id, "member");
    const shopper = await stack.createUser();
    const phone = await stack.signedIn(shopper);
    const page = await phone.newPage();

    // Typed code of the suspended shop: the same words as its QR code.
    await typeShortCode(page, suspended.id);
    await eventually(() => heading(page)).toBe("Boutique suspendue");
    expect(await page.getByText("Code inconnu ou expiré").count()).toBe(0);
    expect(await page.locator("body").textContent()).toContain(
      `${suspended.name} est momentanément suspendue sur Fidèle`,
    );
    await snap(page, "issue25-row2-typed-code-suspended");
    const { token } = await tokenFor(stack.deps.db, suspended.id);
    await page.goto(`/boutique/${suspended.scanUid}?t=${token}`);
    await eventually(() => heading(page)).toBe("Boutique suspendue");
    const outcomes = await stack.deps.db
      .select({ outcome: scans.outcome })
      .from(scans)
      .where(eq(scans.userId, shopper.id));
    // The same code of the moment, typed or scanned: one attempt, refused as suspended, never « unknown ».
    expect(new Set(outcomes.map((s) => s.outcome))).toEqual(new Set(["suspended"]));

    // The active shop's typed code is credited as ever.
    await typeShortCode(page, active.id);
    await eventually(() => heading(page)).toBe("Passage validé !");

    // The suspended shop's counter: a full-screen message, no QR code, no short code.
    const counter = await stack.signedIn(staff);
    const reader = await counter.newPage();
    await reader.goto("/reader");
    await eventually(() => heading(reader)).toBe("Boutique suspendue");
    await eventually(() => reader.getByRole("alert").textContent()).toContain(
      `${suspended.name} est momentanément suspendue`,
    );
    expect(await reader.getByRole("img", { name: /QR code à scanner/ }).count()).toBe(0);
    expect(await reader.getByTestId("short-code").count()).toBe(0);
    await expectAccessible(reader);
    await snap(reader, "issue25-row2-counter-suspended");

    // The active shop's counter shows its code and no such message.
    const otherCounter = await stack.signedIn(otherStaff);
    const otherReader = await otherCounter.newPage();
    await otherReader.goto("/reader");
    await eventually(() => heading(otherReader)).toBe(active.name);
    await eventually(() => otherReader.getByTestId("short-code").isVisible()).toBe(true);
    expect(await otherReader.getByText("Boutique suspendue").count()).toBe(0);

    await phone.close();
    await counter.close();
    await otherCounter.close();
  });
});

/** Through the owner's API: a lot and an open contest of the given kind, scheduled. */
async function openContest(shopId: string, owner: { email: string; password: string }, body: Record<string, unknown>) {
  const context = await stack.signedIn(owner);
  const post = async (path: string, data: unknown = {}) => {
    const res = await context.request.post(`${stack.baseUrl}${path}`, { data, headers: { origin: stack.baseUrl } });
    expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
    return res.json();
  };
  const base = `/api/backoffice/shops/${shopId}`;
  const { lot } = await post(`${base}/prize-lots`, {
    name: "Croissant",
    description: "Un croissant au beurre",
    valueCents: 150,
    quantity: 20,
    handover: "counter",
    claimDays: 15,
  });
  const { contest } = await post(`${base}/contests`, {
    title: `Jeu ${unique()}`,
    eligibility: "confirmed",
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    ...body,
    prizes: [{ lotId: lot.id, ...(body.kind === "wheel" ? { oddsBp: 2_500 } : { quantity: 1 }) }],
  });
  await post(`${base}/contests/${contest.id}/schedule`);
  await context.close();
  return { contestId: contest.id as string, post };
}

describe("issue 25 row 3: the wheel", () => {
  it("issue 25 row 3: a player who has spun today reads « Déjà joué — prochain tour demain à 0 h 00 » before any tap, no « Tourner la roue »; slices sized by odds, « Perdu » whole; another player may spin", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Boulangerie ${unique()}` });
    const { contestId } = await openContest(shop.id, owner, { kind: "wheel", spinPeriod: "day" });
    const url = `/jeu-concours-roulette?concours=${contestId}`;

    const played = await stack.createUser();
    const playedContext = await stack.signedIn(played);
    const spun = await playedContext.request.post(`${stack.baseUrl}/api/contests/${contestId}/spin`, {
      data: { marketingConsent: false },
      headers: { origin: stack.baseUrl },
    });
    expect(spun.status()).toBe(201);
    const page = await playedContext.newPage();
    await page.goto(url);
    await eventually(() => page.getByTestId("wheel-played").textContent()).toBe(
      "Déjà joué — prochain tour demain à 0 h 00.",
    );
    expect(await page.getByRole("button", { name: "Tourner la roue" }).count()).toBe(0);

    // Slices as wide as the odds: 25 % → 90°, « Perdu » 75 % → 270°.
    const background = await page.getByTestId("wheel").evaluate((el) => (el as HTMLElement).style.background);
    expect(background).toContain("rgb(15, 118, 110) 90deg, rgb(87, 83, 78) 90deg, rgb(87, 83, 78) 360deg");
    // « Perdu » is drawn whole, inside the wheel.
    const wheel = (await page.getByTestId("wheel").boundingBox())!;
    const perdu = (await page.getByTestId("wheel").getByText("Perdu", { exact: true }).boundingBox())!;
    expect(perdu.x).toBeGreaterThanOrEqual(wheel.x);
    expect(perdu.x + perdu.width).toBeLessThanOrEqual(wheel.x + wheel.width);
    expect(perdu.y).toBeGreaterThanOrEqual(wheel.y);
    expect(perdu.y + perdu.height).toBeLessThanOrEqual(wheel.y + wheel.height);
    const clipped = await page
      .getByTestId("wheel")
      .getByText("Perdu", { exact: true })
      .evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight);
    expect(clipped).toBe(false);
    // Every label reads upright, « Perdu » in the lower half too: the wheel's turn and the label's own add up to 0°.
    expect(await wheelLabelTurns(page)).toEqual([0, 0]);
    await expectAccessible(page);
    await snap(page, "issue25-row3-wheel-already-played");

    // Another player has not played: the button, no « Déjà joué ».
    const fresh = await stack.createUser();
    const freshContext = await stack.signedIn(fresh);
    const freshPage = await freshContext.newPage();
    await freshPage.goto(url);
    await eventually(() => freshPage.getByRole("button", { name: "Tourner la roue" }).isVisible()).toBe(true);
    expect(await freshPage.getByTestId("wheel-played").count()).toBe(0);
    await snap(freshPage, "issue25-row3-wheel-fresh");
    await playedContext.close();
    await freshContext.close();
  });
});

describe("issue 25 row 7: a contest win", () => {
  it("issue 25 row 7: the winner finds it in the bell and the inbox, and a home card « Vous avez gagné … à retirer avant le … »; a loser sees neither", async () => {
    const owner = await stack.createUser();
    const shop = await stack.createShop(owner.id, { name: `Pâtisserie ${unique()}` });
    const { contestId } = await openContest(shop.id, owner, { kind: "wheel", spinPeriod: "contest" });
    await stack.deps.db.execute(sql`update contest_prizes set odds_bp = 10000 where contest_id = ${contestId}`);
    const winner = await stack.createUser({ firstName: "Inès" });
    const context = await stack.signedIn(winner);
    const spun = await context.request.post(`${stack.baseUrl}/api/contests/${contestId}/spin`, {
      data: { marketingConsent: false },
      headers: { origin: stack.baseUrl },
    });
    expect(spun.status()).toBe(201);
    const { won, winning } = (await spun.json()) as { won: boolean; winning: { code: string } };
    expect(won).toBe(true);

    const page = await context.newPage();
    await page.goto("/");
    const card = page.getByTestId("won-lot-card");
    await eventually(() => card.textContent()).toMatch(
      new RegExp(`^Vous avez gagné « Croissant » chez ${shop.name}, à retirer avant le \\d{1,2} \\S+ \\d{4}`),
    );
    await eventually(() =>
      page.getByRole("link", { name: "Notifications : 1 message non lu" }).first().isVisible(),
    ).toBe(true);
    await expectAccessible(page);
    await snap(page, "issue25-row7-home-won");
    await card.click();
    await page.waitForURL((u) => u.pathname === "/jeu-concours");
    await eventually(() => page.getByTestId("win-code").first().textContent()).toBe(winning.code);

    await page.goto("/notifications");
    await eventually(() => page.getByText("Vous avez gagné : Croissant").first().isVisible()).toBe(true);
    await snap(page, "issue25-row7-inbox-won");

    // A player who did not win: no card, no message.
    const other = await stack.createUser();
    const otherContext = await stack.signedIn(other);
    const otherPage = await otherContext.newPage();
    await otherPage.goto("/");
    await eventually(() => heading(otherPage)).toMatch(/^Bonjour/);
    await eventually(() => otherPage.getByRole("link", { name: "Notifications" }).first().isVisible()).toBe(true);
    expect(await otherPage.getByTestId("won-lot-card").count()).toBe(0);
    await otherPage.goto("/notifications");
    await eventually(() => heading(otherPage)).toBe("Notifications");
    expect(await otherPage.getByText("Vous avez gagné").count()).toBe(0);
    await context.close();
    await otherContext.close();
  });
});
