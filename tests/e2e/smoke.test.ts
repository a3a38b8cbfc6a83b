import { afterAll, beforeAll, describe, it } from "vitest";
import { eventually, expectAccessible, snap, type Stack, startStack } from "../setup/e2e.ts";

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
