import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward } from "../../src/server/db/factories.ts";
import { expectAccessible, snap, type Stack, startStack } from "../setup/e2e.ts";

/**
 * Issue 25 at 390×844, the edges a new owner trips on: a card called ready with no reward (row 10), saves that say
 * nothing and an SMS test offered before its budget (row 14), and sign-in edges (row 16).
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });
const heading = async (page: Page) => (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";
const unique = () => randomUUID().slice(0, 6);

async function signedIn(user: { email: string; password: string }): Promise<BrowserContext> {
  const context = await stack.newContext();
  await stack.signIn(context, user.email, user.password);
  return context;
}

describe("issue 25 row 10: a new shop's card is not ready without a reward", () => {
  it("issue 25 row 10: the new owner is told the card lacks a reward and choosing one is the first step, until one exists; a shopper sees none of it", async () => {
    const owner = await stack.createUser({ firstName: "Inès" });
    const shop = await stack.createShop(owner.id, { name: `Fromagerie ${unique()}` });
    const context = await signedIn(owner);
    const page = await context.newPage();

    await page.goto(`/result-boutique?boutique=${shop.id}`);
    await eventually(() => heading(page)).toBe(`${shop.name} est sur Fidèle !`);
    await eventually(() => page.getByText("Il lui manque une récompense").isVisible()).toBe(true);
    expect(await page.locator("main").textContent()).not.toMatch(/prête/);
    const steps = page.getByRole("listitem");
    await eventually(() => steps.first().textContent()).toMatch(/^1Choisissez votre récompense/);
    await expectAccessible(page);
    await snap(page, "issue25-row10-created-no-reward");

    await page.goto("/admin");
    const missing = page.getByRole("region", { name: "Il manque une récompense à votre carte" });
    await eventually(() => missing.isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "issue25-row10-dashboard-no-reward");
    await missing.getByRole("link", { name: "Créer ma première récompense" }).click();
    await eventually(() => heading(page)).toBe("Nouvelle récompense");

    // Once a reward exists, the card is ready and the notice is gone.
    await createReward(stack.deps, { shopId: shop.id, title: "Un fromage offert", cost: 10 });
    await page.goto("/admin");
    await eventually(() => page.getByRole("heading", { name: "Ce que vous devez" }).isVisible()).toBe(true);
    await eventually(() => page.getByText("récompense dès 10 tampons").isVisible()).toBe(true);
    expect(await missing.count()).toBe(0);
    await page.goto(`/result-boutique?boutique=${shop.id}`);
    await eventually(() => page.getByText(/Votre carte de fidélité est prête : 1 tampon par passage/).isVisible()).toBe(
      true,
    );
    await eventually(() => steps.first().textContent()).toMatch(/^1Dessinez votre carte/);
    await context.close();

    // A shopper opening the same link hears nothing about this shop's card.
    const shopper = await stack.createUser();
    const other = await signedIn(shopper);
    const shopperPage = await other.newPage();
    await shopperPage.goto(`/result-boutique?boutique=${shop.id}`);
    await eventually(() => heading(shopperPage)).toBe("Aucune boutique créée ici");
    expect(await shopperPage.locator("main").textContent()).not.toMatch(/récompense/);
    await other.close();
  });
});
