import type { BrowserContext } from "playwright-core";
import { linkIn } from "../setup/smtp.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward } from "../../src/server/db/factories.ts";
import { eventually, expectAccessible, heading, snap, type Stack, startStack, unique } from "../setup/e2e.ts";

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

describe("issue 25 row 10: a new shop's card is not ready without a reward", () => {
  it("issue 25 row 10: the new owner is told the card lacks a reward and choosing one is the first step, until one exists; a shopper sees none of it", async () => {
    const owner = await stack.createUser({ firstName: "Inès" });
    const shop = await stack.createShop(owner.id, { name: `Fromagerie ${unique()}` });
    const context = await stack.signedIn(owner);
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
    const other = await stack.signedIn(shopper);
    const shopperPage = await other.newPage();
    await shopperPage.goto(`/result-boutique?boutique=${shop.id}`);
    await eventually(() => heading(shopperPage)).toBe("Aucune boutique créée ici");
    expect(await shopperPage.locator("main").textContent()).not.toMatch(/récompense/);
    await other.close();
  });
});

describe("issue 25 row 14: saves say so; the SMS budget comes first", () => {
  it("issue 25 row 14: a /notif switch says « Enregistré » politely, once saved; a visitor gets no switch to save", async () => {
    const shopper = await stack.createUser({ firstName: "Chloé" });
    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    await page.goto("/notif");
    await eventually(() => heading(page)).toBe("Réglages des notifications");
    const saved = page.locator('[role="status"][aria-live="polite"]').filter({ hasText: "Enregistré" });
    expect(await saved.count()).toBe(0);
    const email = page.getByRole("switch", { name: /^E-mails/ }).first();
    const before = await email.isChecked();
    await email.click();
    await eventually(() => saved.count()).toBe(1);
    await eventually(() => email.isChecked()).toBe(!before);
    await eventually(() => saved.isVisible()).toBe(true);
    await snap(page, "issue25-row14-notif-saved");
    await expectAccessible(page);
    await context.close();

    const visitor = await stack.newContext();
    const anonymous = await visitor.newPage();
    await anonymous.goto("/notif");
    await eventually(() => new URL(anonymous.url()).pathname).toBe("/login");
    expect(await anonymous.getByRole("switch").count()).toBe(0);
    expect(await anonymous.getByText("Enregistré").count()).toBe(0);
    await visitor.close();
  });

  it("issue 25 row 14: « Ajouter le lot » says « Enregistré » once the lot is saved; a failed save does not", async () => {
    const owner = await stack.createUser({ firstName: "Rémi" });
    await stack.createShop(owner.id, { name: `Épicerie ${unique()}` });
    const context = await stack.signedIn(owner);
    const page = await context.newPage();
    await page.goto("/admin/gestion-des-lots");
    await eventually(() => heading(page)).toBe("Gestion des lots");
    const saved = page.locator('[role="status"][aria-live="polite"]').filter({ hasText: "Enregistré" });
    // Refused (no name): no « Enregistré ».
    await page.getByRole("button", { name: "Ajouter le lot" }).click();
    await eventually(() => page.getByRole("alert").count()).toBeGreaterThan(0);
    expect(await saved.count()).toBe(0);
    await page.getByLabel("Nom du lot").fill("Panier garni");
    await page.getByLabel("Valeur commerciale (€)").fill("25");
    await page.getByRole("button", { name: "Ajouter le lot" }).click();
    await eventually(() => page.getByRole("link", { name: "Panier garni" }).count()).toBe(1);
    await eventually(() => saved.count()).toBe(1);
    await snap(page, "issue25-row14-lot-saved");
    await expectAccessible(page);
    await context.close();
  });

  it("issue 25 row 14: /admin/test-sms shows the budget first and offers no test while none is granted; a team member is not shown the budget", async () => {
    const owner = await stack.createUser({ firstName: "Yanis" });
    const shop = await stack.createShop(owner.id, { name: `Primeur ${unique()}` });
    const context = await stack.signedIn(owner);
    const page = await context.newPage();
    await page.goto("/admin/test-sms");
    await eventually(() => heading(page)).toBe("Test SMS");
    await eventually(() => page.getByTestId("sms-budget").textContent()).toMatch(/Aucun budget SMS accordé/);
    const sections = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(sections[0]).toBe("Budget SMS du mois");
    expect(await page.getByText(/Demandez un budget ci-dessous/).isVisible()).toBe(true);
    expect(await page.getByTestId("sms-test-unavailable").textContent()).toMatch(/Possible dès qu'un budget SMS/);
    expect(await page.getByRole("button", { name: "Envoyer le test" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Recevoir un code" }).count()).toBe(0);
    await expectAccessible(page);
    await snap(page, "issue25-row14-test-sms-no-budget");
    await context.close();

    const staff = await stack.createUser({ firstName: "Léa" });
    await addStaff(stack.deps, shop.id, staff.id, "member");
    const staffContext = await stack.signedIn(staff);
    const staffPage = await staffContext.newPage();
    await staffPage.goto("/admin/test-sms");
    await eventually(() => staffPage.getByRole("heading", { name: "Accès refusé" }).isVisible()).toBe(true);
    expect(await staffPage.getByTestId("sms-budget").count()).toBe(0);
    await snap(staffPage, "issue25-row14-test-sms-staff");
    await staffContext.close();
  });
});

describe("issue 25 row 16: sign-in edges", () => {
  const meOf = async (context: BrowserContext) =>
    (
      (await (await context.request.get(`${stack.baseUrl}/api/accounts/me`)).json()) as {
        me: { user: { email: string } } | null;
      }
    ).me;

  it("issue 25 row 16: /login while signed in says « Déjà connecté(e) » with the account, a way on and a sign-out; a visitor gets the form", async () => {
    const owner = await stack.createUser({ firstName: "Adèle" });
    await stack.createShop(owner.id, { name: `Librairie ${unique()}` });
    const context = await stack.signedIn(owner);
    const page = await context.newPage();
    await page.goto("/login");
    await eventually(() => heading(page)).toBe("Déjà connecté(e)");
    // The top bar and the tab say it too, not the form's « Connexion ».
    expect(await page.getByRole("banner").textContent()).toContain("Déjà connecté(e)");
    expect(await page.getByRole("banner").getByText("Connexion").count()).toBe(0);
    expect(await page.title()).toBe("Déjà connecté(e) · Fidèle");
    expect(await page.getByText(owner.email).isVisible()).toBe(true);
    expect(await page.getByLabel("Mot de passe", { exact: true }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Aller à mon espace commerçant" }).getAttribute("href")).toBe("/admin");
    await expectAccessible(page);
    await snap(page, "issue25-row16-already-signed-in");
    await page.getByRole("button", { name: "Se déconnecter pour changer de compte" }).click();
    await eventually(() => heading(page)).toBe("Connexion");
    expect(await page.getByRole("banner").textContent()).toContain("Connexion");
    expect(await page.title()).toBe("Connexion · Fidèle");
    expect(await meOf(context)).toBeNull();
    await context.close();

    const visitor = await stack.newContext();
    const anonymous = await visitor.newPage();
    await anonymous.goto("/login");
    await eventually(() => heading(anonymous)).toBe("Connexion");
    expect(await anonymous.getByText("Déjà connecté(e)").count()).toBe(0);
    await visitor.close();
  });

  it("issue 25 row 16: an owner signing in lands on the back office; a shopper lands on the home", async () => {
    const owner = await stack.createUser({ firstName: "Bastien" });
    await stack.createShop(owner.id, { name: `Cave ${unique()}` });
    const shopper = await stack.createUser({ firstName: "Camille" });
    for (const [user, landing, title] of [
      [owner, "/admin", "Tableau de bord"],
      [shopper, "/", /Bonjour Camille/],
    ] as const) {
      const context = await stack.newContext();
      const page = await context.newPage();
      await page.goto("/login");
      await eventually(() => heading(page)).toBe("Connexion");
      await page.getByLabel("Adresse e-mail").fill(user.email);
      await page.getByLabel("Mot de passe", { exact: true }).fill(user.password);
      await page.getByRole("button", { name: "Se connecter", exact: true }).click();
      await page.waitForURL(`${stack.baseUrl}${landing}`);
      await eventually(() => heading(page)).toMatch(title);
      if (landing === "/admin") await snap(page, "issue25-row16-owner-lands-on-admin");
      await context.close();
    }
  });

  it("issue 25 row 16: the invitation's sign-up starts with the invited address and comes back to the invitation; a plain sign-up starts empty", async () => {
    const owner = await stack.createUser({ firstName: "Margaux" });
    const shop = await stack.createShop(owner.id, { name: `Crèmerie ${unique()}` });
    const ownerContext = await stack.signedIn(owner);
    const invited = `equipe-${unique()}@test.fidele.local`;
    const sent = await ownerContext.request.post(`${stack.baseUrl}/api/backoffice/shops/${shop.id}/invitations`, {
      data: { email: invited },
      headers: { origin: stack.baseUrl },
    });
    expect(sent.status()).toBe(201);
    await ownerContext.close();
    const mail = await stack.smtp.waitForMail(invited, (m) => m.text.includes("/accept-invitation/"));
    const link = new URL(linkIn(mail, "/accept-invitation/"));
    expect(link.searchParams.get("email")).toBe(invited);

    const context = await stack.newContext();
    const page = await context.newPage();
    await page.goto(`${link.pathname}${link.search}`);
    await eventually(() => heading(page)).toBe("Rejoindre l'équipe d'une boutique");
    await page.getByRole("link", { name: "Créer mon compte" }).click();
    await eventually(() => heading(page)).toBe("Créer un compte");
    await eventually(() => page.getByLabel("Adresse e-mail").inputValue()).toBe(invited);
    await expectAccessible(page);
    await snap(page, "issue25-row16-invited-signup");
    await page.getByLabel("Mot de passe", { exact: true }).fill("une-phrase-de-passe");
    await page.getByRole("button", { name: "Créer mon compte" }).click();
    await eventually(() => heading(page)).toBe("Vérifiez vos e-mails");
    const confirmation = await stack.smtp.waitForMail(invited, (m) => m.subject.includes("Confirmez"));
    await page.goto(linkIn(confirmation, "verify-email"));
    await page.waitForURL((url) => url.pathname === "/confirm");
    await page.getByRole("link", { name: "Compléter mon profil" }).click();
    await eventually(() => heading(page)).toBe("Faisons connaissance");
    await page.getByLabel("Prénom").fill("Noé");
    await page.getByLabel("Nom", { exact: true }).fill("Garnier");
    await page.getByRole("button", { name: "Enregistrer et continuer" }).click();
    await page.waitForURL((url) => url.pathname === link.pathname);
    await eventually(() => heading(page)).toBe(`Rejoindre ${shop.name}`);
    await eventually(() => page.getByRole("button", { name: "Accepter l'invitation" }).isVisible()).toBe(true);
    await context.close();

    const visitor = await stack.newContext();
    const plain = await visitor.newPage();
    await plain.goto("/signup");
    await eventually(() => heading(plain)).toBe("Créer un compte");
    expect(await plain.getByLabel("Adresse e-mail").inputValue()).toBe("");
    await visitor.close();
  });
});
