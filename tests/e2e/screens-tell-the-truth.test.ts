import { eq, sql } from "drizzle-orm";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward, grantPoints } from "../../src/server/db/factories.ts";
import { contests, contestWinnings, shops } from "../../src/server/db/schema/index.ts";
import { drawContest } from "../../src/server/modules/contests/draw.service.ts";
import { eventually, expectAccessible, heading, snap, type Stack, startStack, unique } from "../setup/e2e.ts";

/**
 * Issue 25 at 390×844: screens that said something untrue, or nothing — the confirmation after deleting one's
 * account (row 1), the card sentence beside ready rewards (row 12), one's own pseudonym on a draw's proof (row 18).
 * Rows 8 (e-mails) and 19 (404) are in tests/api/email-privacy.test.ts and tests/e2e/shell-routes.test.ts.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe("issue 25 row 1: account deletion", () => {
  it("issue 25 row 1: after deleting their account, the shopper sees the confirmation at the top of the home, announced; a visitor never does", async () => {
    const shopper = await stack.createUser({ firstName: "Maëlle", password: "un-mot-de-passe-sûr" });
    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    await page.goto("/profil");
    await page.getByRole("button", { name: "Supprimer mon compte…" }).click();
    await page.getByLabel("Mot de passe, pour confirmer").fill(shopper.password);
    // The delete button is the last thing of a long page: the home would open scrolled this far down.
    await page.getByRole("button", { name: "Supprimer définitivement mon compte" }).scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await page.getByRole("button", { name: "Supprimer définitivement mon compte" }).click();
    await page.waitForURL((url) => url.pathname === "/");

    const notice = page.getByRole("status").filter({ hasText: "Votre compte et vos données ont été supprimés." });
    await eventually(() => notice.isVisible()).toBe(true);
    await eventually(() => page.evaluate(() => window.scrollY)).toBe(0);
    // At the top, inside the first screen, above the home's heading; focused, so a screen reader reads it.
    const box = (await notice.boundingBox())!;
    const h1 = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThan(844);
    expect(box.y).toBeLessThan(h1.y);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("arrival-notice");
    await expectAccessible(page);
    await snap(page, "issue25-row1-account-deleted");
    const left = await stack.deps.db.execute(sql`select 1 from "user" where id = ${shopper.id}`);
    expect(left.rows).toHaveLength(0);

    // Said once: a reload of the home does not say it again.
    await page.reload();
    await eventually(() => heading(page)).toContain("Vos cartes de fidélité");
    expect(await page.getByText("Votre compte et vos données ont été supprimés.").count()).toBe(0);
    await context.close();

    // A visitor opening the home sees no such notice.
    const visitor = await stack.newContext();
    const home = await visitor.newPage();
    await home.goto("/");
    await eventually(() => heading(home)).toContain("Vos cartes de fidélité");
    expect(await home.getByTestId("arrival-notice").count()).toBe(0);
    expect(await home.getByText("ont été supprimés").count()).toBe(0);
    await visitor.close();
  });
});

describe("issue 25 row 12: the card sentence", () => {
  it("issue 25 row 12: with two rewards ready, the card names the next one (« encore 2 tampons »), never « Plus que 2 tampons »; one stamp left reads « Plus qu'un tampon »", async () => {
    const owner = await stack.createUser({ firstName: "Odile" });
    const shop = await stack.createShop(owner.id, { name: `Boulangerie ${unique()}` });
    await createReward(stack.deps, { shopId: shop.id, title: "Café offert", cost: 3 });
    await createReward(stack.deps, { shopId: shop.id, title: "Croissant offert", cost: 5, position: 1 });
    await createReward(stack.deps, { shopId: shop.id, title: "Tarte offerte", cost: 10, position: 2 });
    const plain = await stack.createShop(owner.id, { name: `Fleuriste ${unique()}` });
    const shopper = await stack.createUser({ firstName: "Jade" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 8 });
    await grantPoints(stack.deps, { shopId: plain.id, userId: shopper.id, points: 9 });

    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    const expected = "2 récompenses disponibles · Prochaine récompense : Tarte offerte (encore 2 tampons)";
    await page.goto(`/shop/${shop.slug}`);
    await eventually(() => heading(page)).toBe(shop.name);
    await eventually(() => page.getByText(expected, { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(/Plus que/).count()).toBe(0);
    await expectAccessible(page);
    await snap(page, "issue25-row12-shop-card");

    // Without a catalogue, the card counts what is left, « un » for one.
    await page.goto(`/shop/${plain.slug}`);
    await eventually(() => heading(page)).toBe(plain.name);
    await eventually(() =>
      page.getByText("Plus qu'un tampon avant votre récompense.", { exact: true }).isVisible(),
    ).toBe(true);
    expect(await page.getByText("Plus que 1 tampon").count()).toBe(0);

    // « Mes cartes » says the same, each card once.
    await page.goto("/cartes-de-fidelite");
    await eventually(() => heading(page)).toBe("Mes cartes");
    const rewardsLines = page.getByTestId("card-rewards");
    await eventually(() => rewardsLines.allTextContents()).toEqual([expected]);
    expect(await page.getByText(/Plus que/).count()).toBe(0);
    await eventually(() => page.getByText("Plus qu'un tampon avant votre récompense.").isVisible()).toBe(true);
    await snap(page, "issue25-row12-cards");
    await context.close();

    // A visitor has no card here: no sentence about stamps left.
    const visitor = await stack.newContext();
    const anon = await visitor.newPage();
    await anon.goto(`/shop/${shop.slug}`);
    await eventually(() => heading(anon)).toBe(shop.name);
    await eventually(() => anon.getByRole("link", { name: "Se connecter pour voir ma carte" }).isVisible()).toBe(true);
    expect(await anon.getByText(/Prochaine récompense|Plus que|Plus qu'un/).count()).toBe(0);
    await visitor.close();
  });
});

describe("issue 25 row 18: the proof page of a draw", () => {
  it("issue 25 row 18: the winner sees « (vous) » beside their pseudonym; another entrant sees theirs unmarked among winners; a visitor sees no « (vous) »", async () => {
    const owner = await stack.createUser({ firstName: "Nadia" });
    const shop = await stack.createShop(owner.id, { name: `Pâtisserie ${unique()}` });
    await stack.deps.db
      .update(shops)
      .set({
        legal: {
          legalName: "Dupain SARL",
          legalForm: "SARL",
          vatNumber: null,
          shareCapital: "5 000 €",
          rcs: "RCS Lyon 123",
          legalAddress: "3 rue des Fours, 69001 Lyon",
          director: "Marie Dupain",
          contactEmail: "contact@dupain.fr",
        },
      })
      .where(eq(shops.id, shop.id));
    const ownerContext = await stack.signedIn(owner);
    const post = async (context: BrowserContext, path: string, data: unknown = {}) => {
      const res = await context.request.post(`${stack.baseUrl}${path}`, { data, headers: { origin: stack.baseUrl } });
      expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
      return res.json();
    };
    const base = `/api/backoffice/shops/${shop.id}`;
    const { lot } = await post(ownerContext, `${base}/prize-lots`, {
      name: "Bûche",
      description: "Une bûche pâtissière",
      valueCents: 3250,
      quantity: 1,
      handover: "counter",
      claimDays: 15,
    });
    const { contest } = await post(ownerContext, `${base}/contests`, {
      kind: "draw",
      title: "Tirage de Noël",
      eligibility: "confirmed",
      startsAt: new Date(Date.now() - 60_000).toISOString(),
      endsAt: new Date(Date.now() + 86_400_000).toISOString(),
      prizes: [{ lotId: lot.id, quantity: 1 }],
    });
    await post(ownerContext, `${base}/contests/${contest.id}/schedule`);
    await ownerContext.close();

    const players = [await stack.createUser({ firstName: "Zoé" }), await stack.createUser({ firstName: "Yanis" })];
    const contexts = [await stack.signedIn(players[0]!), await stack.signedIn(players[1]!)];
    for (const c of contexts) await post(c, `/api/contests/${contest.id}/enter`);
    await stack.deps.db
      .update(contests)
      .set({ endsAt: new Date(Date.now() - 1000), startsAt: new Date(Date.now() - 86_400_000) })
      .where(eq(contests.id, contest.id));
    await drawContest({ db: stack.deps.db, contestId: contest.id });
    const [winning] = await stack.deps.db
      .select()
      .from(contestWinnings)
      .where(eq(contestWinnings.contestId, contest.id));
    const winnerIndex = players.findIndex((p) => p.id === winning!.userId);
    const winnerContext = contexts[winnerIndex]!;
    const otherContext = contexts[1 - winnerIndex]!;

    const proof = `/jeu-concours?concours=${contest.id}`;
    const result = (page: Page) =>
      page.getByRole("region", { name: "Un tirage que chacun peut vérifier" }).getByRole("listitem");

    const page = await winnerContext.newPage();
    await page.goto(proof);
    await eventually(() => heading(page)).toBe("Tirage de Noël");
    await eventually(() => result(page).first().textContent()).toMatch(/^1\. p-[0-9a-f]{16} \(vous\) — Bûche/);
    await result(page).first().scrollIntoViewIfNeeded();
    await expectAccessible(page);
    await snap(page, "issue25-row18-proof-winner");

    // The other entrant: the winner's pseudonym carries no « (vous) »; their own is given, not drawn.
    const other = await otherContext.newPage();
    await other.goto(proof);
    await eventually(() =>
      other.getByText(/Votre pseudonyme dans la liste : p-[0-9a-f]{16} \(non tiré\)\./).isVisible(),
    ).toBe(true);
    expect(await result(other).first().textContent()).not.toContain("(vous)");
    await other.getByText(/Votre pseudonyme dans la liste/).scrollIntoViewIfNeeded();
    await snap(other, "issue25-row18-proof-other");

    // A visitor: the list, nobody marked.
    const visitor = await stack.newContext();
    const anon = await visitor.newPage();
    await anon.goto(proof);
    await eventually(() => result(anon).first().textContent()).toMatch(/^1\. p-[0-9a-f]{16} — Bûche/);
    expect(await anon.getByText("(vous)").count()).toBe(0);
    expect(await anon.getByText(/Votre pseudonyme/).count()).toBe(0);
    for (const c of [...contexts, visitor]) await c.close();
  });
});
