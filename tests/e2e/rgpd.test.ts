import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward, grantPoints } from "../../src/server/db/factories.ts";
import { redeem } from "../../src/server/modules/rewards/redemptions.service.ts";
import { eventually, expectAccessible, heading, snap, type Stack, startStack } from "../setup/e2e.ts";

/** Issue 16 at 390×844: an owner opens a customer from the list and adjusts with a reason; a shopper's RGPD rights. */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

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
    // The card's own unit (issue 25 row 13): this shop's card counts stamps.
    await page.getByLabel("Tampons à ajouter (ou retirer avec -)").fill("15");
    await page.getByLabel("Motif").fill("Geste commercial");
    await page.getByRole("button", { name: "Enregistrer la correction" }).click();
    await eventually(() => page.getByText(/Correction de \+15 enregistrée/).isVisible()).toBe(true);
    await eventually(() => page.getByText("Geste commercial").isVisible()).toBe(true);
    await eventually(() => page.locator("dd").first().textContent()).toBe("35 tampons");
    await expectAccessible(page);
    await snap(page, "customer-profile-adjusted");
    await context.close();

    // The platform admin finds the adjustment, its reason and its shop in /admin/logs.
    const admin = await stack.createUser({ password: "mot-de-passe-admin", role: "admin" });
    const adminContext = await stack.newContext();
    await stack.signIn(adminContext, admin.email, "mot-de-passe-admin");
    const logs = await adminContext.newPage();
    await logs.goto("/admin/logs");
    await eventually(() => heading(logs)).toBe("Journal");
    const entry = logs.getByRole("listitem").filter({ hasText: "Motif : Geste commercial" }).first();
    await eventually(() => entry.isVisible()).toBe(true);
    expect(await entry.textContent()).toContain("Correction de solde");
    expect(await entry.textContent()).toContain("+15");
    await expectAccessible(logs);
    await adminContext.close();
  });

  it("an owner opens a reward's page from the catalogue: figures, who took it, then archives it", async () => {
    const owner = await stack.createUser({ firstName: "Nadia", lastName: "Roux" });
    const shop = await stack.createShop(owner.id, { name: `Épicerie ${randomUUID().slice(0, 6)}` });
    const reward = await createReward(stack.deps, {
      shopId: shop.id,
      title: "Pain au chocolat offert",
      cost: 5,
      stock: 8,
    });
    const customer = await stack.createUser({ firstName: "Inès", lastName: "Barthélemy" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: customer.id, points: 20 });
    await redeem(stack.deps.database, customer.id, { rewardId: reward.id, idempotencyKey: randomUUID() });

    const context = await stack.newContext();
    await stack.signIn(context, owner.email, owner.password);
    const page = await context.newPage();
    await page.goto("/admin/recompenses");
    await page.getByRole("link", { name: "Pain au chocolat offert", exact: true }).click();
    await page.waitForURL(`**/admin/${reward.slug}`);
    await eventually(() => heading(page)).toBe("Pain au chocolat offert");
    await eventually(() => page.getByText("Utilisations sur 12 semaines : 1").isVisible()).toBe(true);
    await eventually(() => page.getByRole("link", { name: "Inès Barthélemy" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "admin-product");
    await page.getByRole("button", { name: "Archiver" }).click();
    await page.getByRole("button", { name: "Confirmer l'archivage" }).click();
    await eventually(() => page.getByText(/Archivée : vos clients ne la voient plus/).isVisible()).toBe(true);
    await expectAccessible(page);

    // An unknown slug is the 404 page.
    await page.goto("/admin/pas-une-recompense-zz");
    await eventually(() => page.getByText("404").first().isVisible()).toBe(true);
    await context.close();
  });

  it("an owner downloads their whole shop, then deletes it by typing its name", async () => {
    const owner = await stack.createUser({ firstName: "Nadia", lastName: "Roux" });
    const name = `Fromagerie ${randomUUID().slice(0, 6)}`;
    const shop = await stack.createShop(owner.id, { name });
    const context = await stack.newContext({ acceptDownloads: true });
    await stack.signIn(context, owner.email, owner.password);
    const page = await context.newPage();
    await page.goto("/admin/edit-societe");
    await eventually(() => page.getByRole("heading", { name: "Fermer ma boutique" }).isVisible()).toBe(true);
    await page.getByRole("button", { name: "Supprimer la boutique…" }).click();
    await page.getByLabel(`Pour confirmer, saisissez « ${name} »`).fill(name);
    // Without the export first, the server says so.
    await page.getByRole("button", { name: "Supprimer définitivement la boutique" }).click();
    await eventually(() => page.getByText(/Téléchargez d'abord l'export de votre boutique/).isVisible()).toBe(true);
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Télécharger toutes les données de la boutique" }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^fidele-boutique-.*\.zip$/);
    const files = unzipSync(new Uint8Array(await readFile(await file.path())));
    expect(strFromU8(files["donnees.json"] as Uint8Array)).toContain(name);
    await expectAccessible(page);
    await snap(page, "close-shop");
    await page.getByRole("button", { name: "Supprimer définitivement la boutique" }).click();
    await page.waitForURL((url) => url.pathname === "/profil");
    const [row] = (
      await stack.deps.db.execute<{ deleted: boolean }>(
        sql`select deleted_at is not null as deleted from shops where id = ${shop.id}`,
      )
    ).rows;
    expect(row?.deleted).toBe(true);
    await context.close();
  });

  it("a shopper who forgot their password deletes their account with a code sent by e-mail", async () => {
    const shopper = await stack.createUser({ firstName: "Léo" });
    const context = await stack.newContext();
    await stack.signIn(context, shopper.email, shopper.password);
    const page = await context.newPage();
    await page.goto("/profil");
    await page.getByRole("button", { name: "Supprimer mon compte…" }).click();
    await page.getByRole("button", { name: "Pas de mot de passe ? Recevoir un code par e-mail" }).click();
    await eventually(() => page.getByText(`Un code à 6 chiffres a été envoyé à ${shopper.email}`).isVisible()).toBe(
      true,
    );
    const [mail] = (
      await stack.deps.db.execute<{ text: string }>(
        sql`select text from mail_outbox where "to" = ${shopper.email} and kind = 'erase-code' order by created_at desc limit 1`,
      )
    ).rows;
    const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1] ?? "";
    await page.getByLabel("Code reçu par e-mail").fill(code);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Supprimer définitivement mon compte" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    const left = await stack.deps.db.execute(sql`select 1 from "user" where id = ${shopper.id}`);
    expect(left.rows).toHaveLength(0);
    await context.close();
  });

  it("a shopper downloads their data (issue 25 row 9: French files, nothing empty, theirs only; a visitor gets none), then deletes their account with their password", async () => {
    const shopper = await stack.createUser({ firstName: "Léa", lastName: "Dubois", password: "un-mot-de-passe-sûr" });
    const someoneElse = await stack.createUser({ firstName: "Marc" });
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
    // Issue 25 row 9: what a person opens first, and their account in French.
    expect(Object.keys(files)).toEqual(expect.arrayContaining(["LISEZ-MOI.txt", "mon-compte.csv"]));
    expect(strFromU8(files["mon-compte.csv"] as Uint8Array)).toContain("Prénom;Nom;Adresse e-mail");
    // Nothing empty, no table's internal name; their own data only (someone else's address is in no file).
    for (const [name, bytes] of Object.entries(files)) {
      if (name.endsWith("/")) continue;
      expect(bytes.length, name).toBeGreaterThan(0);
      // A CSV is its header and at least one row: a table with nothing of theirs is no file.
      if (name.endsWith(".csv")) expect(strFromU8(bytes).trim().split("\n").length, name).toBeGreaterThan(1);
      expect(name, name).not.toMatch(/_/);
    }
    const everything = Object.values(files)
      .map((bytes) => strFromU8(bytes))
      .join("\n");
    expect(everything).not.toContain(someoneElse.email);
    // A visitor has no « Mes données » to download.
    const visitor = await stack.newContext();
    expect((await visitor.request.get(`${stack.baseUrl}/api/accounts/me/export`)).status()).toBe(401);
    await visitor.close();

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
