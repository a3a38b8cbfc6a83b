import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startZettle, type ZettleServer } from "../fixtures/zettle-server.ts";
import { expectAccessible, open, snap, type Stack, startStack, unique } from "../setup/e2e.ts";
import { eventually } from "../setup/eventually.ts";

/**
 * Issue 29 item 5, in the browser at 390×844: the owner connects Zettle on /admin/caisse with the key made in
 * my.zettle.com; a sale at the (local) Zettle with the customer's code in an item's comment credits them, its refund
 * takes the points back, and the owner sees both with why. axe on each step.
 */
let stack: Stack;
let zettle: ZettleServer;

beforeAll(async () => {
  zettle = await startZettle();
  stack = await startStack({ env: zettle.env });
});
afterAll(async () => {
  await stack?.close();
  await zettle?.close();
});

describe("/admin/caisse, Zettle", () => {
  it("the owner connects Zettle; a sale credits the customer, its refund takes the points back", async () => {
    const owner = await stack.createUser({ firstName: "Nina", lastName: "Caisse" });
    const shop = await stack.createShop(owner.id, { name: `Boulangerie ${unique()}` });
    await stack.deps.db.execute(
      `update shops set card_mode = 'points', earn_by = 'amount', cooldown_minutes = 0 where id = '${shop.id}'` as never,
    );
    const context = await stack.signedIn(owner);
    const page = await context.newPage();
    await open(page, "/admin/caisse", "Caisse et API");
    const section = page.getByRole("region", { name: "Caisse Zettle" });
    await section.getByLabel("Identifiant client (client ID)").fill("pas-un-uuid");
    await section.getByLabel("Clé API Zettle").fill(zettle.apiKey);
    await section.getByRole("button", { name: "Connecter Zettle" }).click();
    await eventually(() => section.getByText(/Identifiant client : un UUID/).count()).toBe(1);
    await expectAccessible(page);

    await section.getByLabel("Identifiant client (client ID)").fill(zettle.clientId);
    await section.getByRole("button", { name: "Connecter Zettle" }).click();
    await eventually(() => section.getByText("Zettle connecté").count()).toBe(1);
    await expect(section.getByText("Aucune vente reçue pour l'instant.").count()).resolves.toBe(1);
    await expectAccessible(page);

    const customer = await stack.createUser({ firstName: "Paul" });
    const customerContext = await stack.signedIn(customer);
    const code = (await (await customerContext.request.get(`${stack.baseUrl}/api/cards/personal-code`)).json())
      .personalCode.display as string;
    const sale = zettle.sell(2450, code);
    expect((await zettle.push(sale)).map((p) => p.status)).toEqual([200]);
    const sales = section.getByRole("list", { name: "Dernières ventes Zettle" });
    await eventually(async () => {
      await page.reload();
      return sales.textContent().catch(() => "");
    }).toMatch(/Vente n° \d+ · 24,50\s€ · Paul\+24 · Points crédités/);

    const refund = zettle.refund(sale, 2450);
    await zettle.push(refund);
    await eventually(async () => {
      await page.reload();
      return sales.textContent().catch(() => "");
    }).toMatch(/Remboursement n° \d+ · 24,50\s€ · Paul[−-]24 · Points repris/);
    await expectAccessible(page);
    await snap(page, "till-zettle", { fullPage: true });

    // Disconnecting asks first, then unsubscribes at Zettle.
    await section.getByRole("button", { name: "Déconnecter Zettle" }).click();
    await page.getByRole("group", { name: "Déconnecter Zettle" }).getByRole("button", { name: "Déconnecter" }).click();
    await eventually(() => section.getByRole("button", { name: "Connecter Zettle" }).count()).toBe(1);
    expect(zettle.subscriptions.size).toBe(0);
    await context.close();
    await customerContext.close();
  });
});
