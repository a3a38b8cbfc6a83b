import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantPoints } from "../../src/server/db/factories.ts";
import { expectAccessible, snap, type Stack, startStack } from "../setup/e2e.ts";

/** Issue 16 at 390×844: an owner opens a customer from the list and adjusts with a reason; a shopper's RGPD rights. */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });
const heading = async (page: Page) => (await page.getByRole("heading", { level: 1 }).first().textContent()) ?? "";

describe("issue 16 journeys", () => {
  it("an owner opens a customer from « Tous les clients » and adjusts their points with a reason", async () => {
    const owner = await stack.createUser({ firstName: "Nadia", lastName: "Roux" });
    const shop = await stack.createShop(owner.id, { name: `Boulangerie ${randomUUID().slice(0, 6)}` });
    const customer = await stack.createUser({ firstName: "Inès", lastName: "Barthélemy" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: customer.id, points: 20 });

    const context = await stack.newContext();
    await stack.signIn(context, owner.email, owner.password);
    const page = await context.newPage();
    await page.goto("/admin/liste-totale-clients");
    await eventually(() => heading(page)).toBe("Tous les clients");
    await eventually(() => page.getByRole("link", { name: "Inès Barthélemy" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "all-customers");

    await page.getByRole("link", { name: "Inès Barthélemy" }).click();
    await page.waitForURL(`**/profile/${customer.id}`);
    await eventually(() => heading(page)).toBe("Inès Barthélemy");
    await expectAccessible(page);
    await page.getByLabel("Points à ajouter (ou retirer avec -)").fill("15");
    await page.getByLabel("Motif").fill("Geste commercial");
    await page.getByRole("button", { name: "Enregistrer la correction" }).click();
    await eventually(() => page.getByText(/Correction de \+15 enregistrée/).isVisible()).toBe(true);
    await eventually(() => page.getByText("Geste commercial").isVisible()).toBe(true);
    await eventually(() => page.locator("dd").first().textContent()).toBe("35");
    await expectAccessible(page);
    await snap(page, "customer-profile-adjusted");
    await context.close();
  });

  it("a shopper downloads their data, then deletes their account with their password", async () => {
    const shopper = await stack.createUser({ firstName: "Léa", lastName: "Dubois", password: "un-mot-de-passe-sûr" });
    const context = await stack.newContext({ acceptDownloads: true });
    await stack.signIn(context, shopper.email, shopper.password);
    const page = await context.newPage();
    await page.goto("/profil");
    await eventually(() => page.getByRole("heading", { name: "Mes données" }).isVisible()).toBe(true);
    await expectAccessible(page);

    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Télécharger mes données" }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^fidele-mes-donnees-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile(await file.path())));
    expect(strFromU8(files["donnees.json"] as Uint8Array)).toContain(shopper.email);
    expect(Object.keys(files)).toContain("csv/cards.csv");

    await page.getByRole("button", { name: "Supprimer mon compte…" }).click();
    await page.getByLabel("Mot de passe, pour confirmer").fill(shopper.password);
    await expectAccessible(page);
    await snap(page, "delete-account");
    await page.getByRole("button", { name: "Supprimer définitivement mon compte" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    const left = await stack.deps.db.execute(sql`select 1 from "user" where id = ${shopper.id}`);
    expect(left.rows).toHaveLength(0);
    await context.close();
  });
});
