import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessibilityViolations, eventually, expectAccessible, snap, type Stack, startStack } from "../setup/e2e.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe("smoke", () => {
  it("shows the home page to a visitor, accessible", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("cartes de fidélité");
    await expectAccessible(page);
    await snap(page, "home-visitor");
    await context.close();
  });

  it("the accessibility check finds what is wrong, in the page and after a client-side change, and leaves out what it is told to", async () => {
    // Every page's « accessible » rests on this helper: a helper that found nothing would pass every page.
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/");
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("cartes de fidélité");
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.evaluate(() => {
      const main = document.querySelector("main") ?? document.body;
      main.insertAdjacentHTML(
        "beforeend",
        `<div id="pale"><p style="color:#ddd;background:#fff">Texte trop pâle</p><button type="button"></button></div>`,
      );
    });
    const found = await accessibilityViolations(page);
    expect(found.some((v) => v.startsWith("color-contrast:") && v.includes("#pale"))).toBe(true);
    expect(found.some((v) => v.startsWith("button-name:"))).toBe(true);
    expect(await accessibilityViolations(page, { onlyRules: ["color-contrast"] })).toEqual([
      expect.stringMatching(/^color-contrast:/),
    ]);
    expect(await accessibilityViolations(page, { exclude: ["#pale"] })).toEqual([]);
    await context.close();
  });

  it("signs a user in with a password", async () => {
    const user = await stack.createUser();
    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Adresse e-mail").fill(user.email);
    await page.getByLabel("Mot de passe", { exact: true }).fill(user.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await page.waitForURL(`${stack.baseUrl}/`);
    await eventually(() => page.getByRole("heading", { level: 1 }).textContent()).toContain("Bonjour Camille");
    await snap(page, "home-signed-in");
    await context.close();
  });
});
