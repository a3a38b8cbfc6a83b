import { eq } from "drizzle-orm";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { cards, prepaidHoldings } from "../../src/server/db/schema/index.ts";
import { eventually, expectAccessible, open, snap, type Stack, startStack, unique } from "../setup/e2e.ts";
import { linkIn } from "../setup/smtp.ts";

/**
 * Issue 28 items 3 and 4 in the browser, on a phone (390×844), axe clean at each step (ADR 0049): the owner defines
 * a bundle, staff sell it at the counter and use a unit from the code the shopper shows, the shopper's card page
 * follows, an expired bundle refuses in French; the owner imports former customers from a CSV, previewed line by
 * line, and a customer claims their balance with the code handed over.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** Intl puts no-break spaces before « € » and in numbers: compare as plain spaces. */
const plain = (s: string | null) => (s ?? "").replace(/\s/g, " ").trim();

async function personalCodeOf(context: BrowserContext) {
  const res = await context.request.get(`${stack.baseUrl}/api/cards/personal-code`);
  return ((await res.json()) as { personalCode: { code: string } }).personalCode.code;
}

describe("prepaid bundles and gift cards", () => {
  it("the owner defines a bundle, staff sell it and use a unit from the shopper's code, the card follows, an expired one refuses", async () => {
    const owner = await stack.createUser({ firstName: "Odile" });
    const shop = await stack.createShop(owner.id, { name: `Salon Coiffure ${unique()}` });
    const employee = await stack.createUser({ firstName: "Hugo" });
    await addStaff(stack.deps, shop.id, employee.id, "member");
    const shopper = await stack.createUser({ firstName: "Camille" });

    // — The owner: a bundle of 10 cuts.
    const ownerContext = await stack.signedIn(owner);
    const ownerPage = await ownerContext.newPage();
    await open(ownerPage, "/admin/prepaye", "Carnets et cartes cadeaux");
    await ownerPage.getByRole("button", { name: "+ Nouveau produit" }).click();
    await ownerPage.getByLabel("Nom", { exact: true }).fill("Carnet de 10 coupes");
    await ownerPage.getByLabel("Nombre d'unités").fill("10");
    await ownerPage.getByLabel("Prix payé en caisse (€)").fill("200");
    await ownerPage.getByLabel("Validité (mois)").fill("0");
    await ownerPage.getByRole("button", { name: "Créer le produit" }).click();
    await eventually(() => ownerPage.getByText("Validité : au moins 1 mois.").isVisible()).toBe(true);
    await ownerPage.getByLabel("Validité (mois)").fill("12");
    await ownerPage.getByRole("button", { name: "Créer le produit" }).click();
    await eventually(() => ownerPage.getByText(/10 unités · 200,00.€ · valable 12 mois/).isVisible()).toBe(true);
    await expectAccessible(ownerPage);
    await snap(ownerPage, "prepaid-owner-products", { fullPage: true });

    // — The counter: the sale, to the customer's code, paid by card.
    const shopperContext = await stack.signedIn(shopper);
    const code = await personalCodeOf(shopperContext);
    const counter = await stack.signedIn(employee);
    const staffPage = await counter.newPage();
    await open(staffPage, "/manager", "Comptoir");
    const sale = staffPage.getByRole("region", { name: "Vendre un carnet ou une carte cadeau" });
    await eventually(() => sale.isVisible()).toBe(true);
    await sale.getByLabel("Payé par").selectOption("card");
    await sale.getByLabel("Code client").fill(code);
    await sale.getByRole("button", { name: "Enregistrer la vente" }).click();
    await eventually(() =>
      sale
        .getByText(
          /^Vendu à Camille : Carnet de 10 coupes \(10 unités\), valable jusqu'au .+ inclus\. Payé : Carte bancaire\.$/,
        )
        .isVisible(),
    ).toBe(true);
    await expectAccessible(staffPage);
    await snap(staffPage, "prepaid-counter-sale", { fullPage: true });
    // Sold twice by mistake: the second sale is taken back at once, the till refunds it.
    await sale.getByRole("button", { name: "Enregistrer la vente" }).click();
    await sale.getByRole("button", { name: "Annuler cette vente" }).click();
    await eventually(() =>
      sale.getByText(/^Vente annulée : rendez \d+,\d{2}\s€ au client en caisse\.$/).isVisible(),
    ).toBe(true);
    expect(await sale.getByRole("button", { name: "Annuler cette vente" }).count()).toBe(0);
    await snap(staffPage, "prepaid-counter-sale-cancelled");

    // — The shopper: the bundle on their cards page, with its end date and its code for the till.
    const phone = await shopperContext.newPage();
    await open(phone, "/cartes-de-fidelite", "Mes cartes");
    const mine = phone.getByRole("region", { name: "Carnets et cartes cadeaux" });
    await eventually(() => mine.getByTestId("prepaid-balance").textContent()).toMatch(/^10 unités/);
    expect(await mine.getByText(/^Valable jusqu'au \d{1,2} \S+ \d{4} inclus$/).isVisible()).toBe(true);
    await mine.getByRole("button", { name: /Utiliser au comptoir/ }).click();
    const qr = mine.getByRole("img", { name: "QR code de « Carnet de 10 coupes »" });
    const holdingCode = ((await qr.getAttribute("data-qr")) ?? "").replace("FIDELE-P:", "");
    expect(holdingCode).toMatch(/^[A-Z2-9]{7}$/);
    await expectAccessible(phone);
    await snap(phone, "prepaid-shopper-code");

    // — The counter types the code on the validation desk and uses one unit.
    await open(staffPage, "/validate-reward", "Valider une récompense");
    await staffPage.getByLabel("Code de la récompense (6 caractères)").fill(holdingCode.toLowerCase());
    await staffPage.getByRole("button", { name: "Rechercher le code" }).click();
    const panel = staffPage.getByRole("region", { name: "Carnet ou carte cadeau" });
    await eventually(() => panel.getByRole("heading", { name: "Carnet de 10 coupes" }).isVisible()).toBe(true);
    expect(await panel.getByText("Camille", { exact: true }).isVisible()).toBe(true);
    await panel.getByRole("button", { name: "Débiter 1 unité" }).click();
    await eventually(() => panel.getByText("Débité : 1 unité. Il reste 9 unités.").isVisible()).toBe(true);
    await expectAccessible(staffPage);
    await snap(staffPage, "prepaid-counter-use");
    // A wrong count typed (3 instead of 1): given back at once, while the customer is there.
    await panel.getByLabel("Autre nombre d'unités").fill("3");
    await panel.getByRole("button", { name: "Débiter", exact: true }).click();
    await eventually(() => panel.getByText("Débité : 3 unités. Il reste 6 unités.").isVisible()).toBe(true);
    expect(await panel.getByLabel("Autre nombre d'unités").inputValue()).toBe("");
    await panel.getByRole("button", { name: "Annuler ce débit" }).click();
    await eventually(() => panel.getByText("Débit de 3 unités annulé. Il reste 9 unités.").isVisible()).toBe(true);
    expect(plain(await panel.getByTestId("counter-prepaid-balance").textContent())).toBe("9 unités");
    expect(await panel.getByRole("button", { name: "Annuler ce débit" }).count()).toBe(0);
    // The desk's history says what happened, the latest first.
    const history = panel.getByTestId("counter-prepaid-history");
    await history.getByText("Historique").click();
    expect((await history.locator("li").allTextContents()).map(plain)).toEqual([
      expect.stringMatching(/^Débit annulé.+ à .+\+3 unités$/),
      expect.stringMatching(/^Utilisé au comptoir.+ à .+−3 unités$/),
      expect.stringMatching(/^Utilisé au comptoir.+ à .+−1 unité$/),
      expect.stringMatching(/^Achat.+ à .+\+10 unités$/),
    ]);
    await expectAccessible(staffPage);
    await snap(staffPage, "prepaid-counter-cancel");
    // The shopper's page reads the same.
    await mine.getByTestId("prepaid-history").getByText("Historique").click();
    await eventually(() => mine.getByTestId("prepaid-history").getByText("Débit annulé").isVisible()).toBe(true);
    await snap(phone, "prepaid-shopper-history");

    // The shopper's open page follows by itself.
    await eventually(() => mine.getByTestId("prepaid-balance").textContent()).toMatch(/^9 unités/);
    // The owner sees what is still owed.
    await open(ownerPage, "/admin/prepaye", "Carnets et cartes cadeaux");
    await eventually(() => ownerPage.getByTestId("owed-units").textContent()).toBe("9 unités");
    await expectAccessible(ownerPage);

    // — Expired: the desk says so, in French, and uses nothing.
    await stack.deps.db
      .update(prepaidHoldings)
      .set({ expiresAt: new Date("2026-03-13T23:00:00Z") })
      .where(eq(prepaidHoldings.code, holdingCode));
    await panel.getByRole("button", { name: "Code suivant" }).click();
    await staffPage.getByLabel("Code de la récompense (6 caractères)").fill(holdingCode);
    await staffPage.getByRole("button", { name: "Rechercher le code" }).click();
    await eventually(() => panel.getByText("expiré depuis le 13 mars 2026").isVisible()).toBe(true);
    await panel.getByRole("button", { name: "Débiter 1 unité" }).click();
    await eventually(() =>
      panel
        .getByText("Ce carnet ou cette carte cadeau a expiré le 13 mars 2026 : il n'est plus utilisable.")
        .isVisible(),
    ).toBe(true);
    expect(plain(await panel.getByTestId("counter-prepaid-balance").textContent())).toBe("9 unités");
    await expectAccessible(staffPage);
    await snap(staffPage, "prepaid-counter-expired");
    await Promise.all([ownerContext.close(), shopperContext.close(), counter.close()]);
  });
});

describe("a gift card given by e-mail", () => {
  it("staff sell it to an address; the person opens the e-mail's link signed out, signs in, and holds it", async () => {
    const owner = await stack.createUser({ firstName: "Odile" });
    const shop = await stack.createShop(owner.id, { name: `Fleuriste ${unique()}` });
    const employee = await stack.createUser({ firstName: "Hugo" });
    await addStaff(stack.deps, shop.id, employee.id, "member");
    const friend = await stack.createUser({ firstName: "Nina" });
    const created = await (await stack.signedIn(owner)).request.post(
      `${stack.baseUrl}/api/backoffice/shops/${shop.id}/prepaid/products`,
      {
        data: { kind: "euros", title: "Carte cadeau 30 €", quantity: 3000, priceCents: 3000, validityMonths: 12 },
        headers: { origin: stack.baseUrl },
      },
    );
    expect(created.status()).toBe(201);

    const counter = await stack.signedIn(employee);
    const staffPage = await counter.newPage();
    await open(staffPage, "/manager", "Comptoir");
    const sale = staffPage.getByRole("region", { name: "Vendre un carnet ou une carte cadeau" });
    await eventually(() => sale.isVisible()).toBe(true);
    await sale.getByLabel("Ou l'offrir : e-mail du bénéficiaire").fill(friend.email);
    await sale.getByRole("button", { name: "Enregistrer la vente" }).click();
    await eventually(() => sale.getByText(/^Carte offerte : un e-mail avec son code part à /).isVisible()).toBe(true);
    await expectAccessible(staffPage);

    const mail = await stack.smtp.waitForMail(friend.email);
    expect(mail.subject).toContain("une carte cadeau pour vous");
    const link = linkIn(mail, "/recuperer");
    // Signed out: the link asks to sign in first, then comes back and claims it.
    const phoneContext = await stack.newContext();
    const phone = await phoneContext.newPage();
    await phone.goto(link.replace(/^https?:\/\/[^/]+/, ""));
    await phone.waitForURL(/\/login\?redirect=/);
    await phone.getByLabel("Adresse e-mail").fill(friend.email);
    await phone.getByLabel("Mot de passe", { exact: true }).fill(friend.password);
    await phone.getByRole("button", { name: "Se connecter", exact: true }).click();
    await eventually(() =>
      phone.getByText(/^« Carte cadeau 30 € » \(30,00.€\) est à vous chez Fleuriste/).isVisible(),
    ).toBe(true);
    await expectAccessible(phone);
    await snap(phone, "prepaid-gift-claimed");
    await Promise.all([counter.close(), phoneContext.close()]);
  });
});

describe("importing a shop's former customers", () => {
  it("the owner previews a CSV line by line, imports what is valid, and a customer claims their balance with the code", async () => {
    const owner = await stack.createUser({ firstName: "Odile" });
    await stack.createShop(owner.id, { name: `Institut ${unique()}` });
    const customer = await stack.createUser({ firstName: "Inès" });
    const csv = [
      "prenom;nom;email;points;prepaye;type_prepaye;libelle_prepaye;fin_validite",
      `Inès;Martin;${customer.email};40;5;unités;Carnet de 10 soins;31/12/2030`,
      "Paul;Durand;paul@exemple.fr;12;;;;",
      "Léa;Roux;lea@exemple;8;;;;",
      "Paul;Durand;paul@exemple.fr;3;;;;",
      "Zoé;Petit;zoe@exemple.fr;;25,50;euros;;01/01/2020",
    ].join("\r\n");

    const ownerContext = await stack.signedIn(owner);
    const page = await ownerContext.newPage();
    await open(page, "/admin/import-clients", "Importer des clients");
    await expectAccessible(page);
    await page
      .getByLabel("Fichier CSV")
      .setInputFiles({ name: "clients.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await eventually(() => page.getByTestId("import-counts").textContent()).toBe(
      "2 ligne(s) à importer, 1 doublon(s) ignoré(s), 2 ligne(s) en erreur.",
    );
    expect(await page.getByText("Adresse e-mail invalide : « lea@exemple ».").isVisible()).toBe(true);
    expect(await page.getByText("Fin de validité déjà passée : 01/01/2020.").isVisible()).toBe(true);
    expect(await page.getByText("Même adresse que la ligne 3 : ligne ignorée.").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "import-preview", { fullPage: true });

    await page.getByRole("button", { name: "Importer 2 ligne(s)" }).click();
    await eventually(() =>
      page.getByText("2 solde(s) importé(s) : chacun attend que son client le récupère avec son code.").isVisible(),
    ).toBe(true);
    const codes = await page.getByTestId("claim-code").allTextContents();
    expect(codes).toHaveLength(2);
    await expectAccessible(page);
    await snap(page, "import-codes", { fullPage: true });

    // — The customer types the code handed over (line 2, the first listed).
    const phoneContext = await stack.signedIn(customer);
    const phone = await phoneContext.newPage();
    await open(phone, "/recuperer", "Récupérer un code");
    await phone.getByLabel("Code (12 caractères)").fill(codes[0]!);
    await phone.getByRole("button", { name: "Récupérer" }).click();
    await eventually(() =>
      phone.getByText(/^« Carnet de 10 soins » \(5 unités\) est à vous chez Institut/).isVisible(),
    ).toBe(true);
    await expectAccessible(phone);
    await snap(phone, "import-claimed");
    await open(phone, "/cartes-de-fidelite", "Mes cartes");
    await eventually(() =>
      phone.getByRole("region", { name: "Carnets et cartes cadeaux" }).getByTestId("prepaid-balance").textContent(),
    ).toMatch(/^5 unités/);
    // The 40 former stamps are on the loyalty card too, once.
    const [card] = await stack.deps.db.select().from(cards).where(eq(cards.userId, customer.id));
    expect(card).toMatchObject({ balance: 40 });
    await expectAccessible(phone);
    await Promise.all([ownerContext.close(), phoneContext.close()]);
  });
});
