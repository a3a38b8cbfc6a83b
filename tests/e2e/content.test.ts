import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectAccessible, snap, type Stack, startStack } from "../setup/e2e.ts";

/** The public content pages of issue 3 item 9, and the shopper's home and dashboard, at 390×844. */
const LEGAL = {
  LEGAL_COMPANY: "Fidèle Quartier SAS, capital de 5 000 €, RCS Lyon 912 345 678",
  LEGAL_ADDRESS: "8 place des Terreaux, 69001 Lyon",
  LEGAL_DIRECTOR: "Claire Dubois",
  LEGAL_HOST: "Scaleway SAS, 8 rue de la Ville-l'Évêque, 75008 Paris",
  LEGAL_CONTACT: "bonjour@fidele-quartier.fr",
};

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: LEGAL });
});
afterAll(async () => {
  await stack?.close();
});

const h1 = (page: Page) => page.locator("main h1").first();

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(path);
  await h1(page).waitFor();
  return page;
}

describe("visitor", () => {
  it("home: what Fidèle is and how to start, with the latest blog posts", async () => {
    const context = await stack.newContext();
    const page = await open(context, "/");
    expect(await h1(page).textContent()).toBe("Vos cartes de fidélité, enfin dans votre poche.");
    expect(await page.getByRole("link", { name: "Créer mon compte gratuit" }).getAttribute("href")).toBe("/signup");
    expect(await page.getByRole("link", { name: "J'ai déjà un compte" }).getAttribute("href")).toBe("/login");
    expect(await page.getByRole("heading", { name: "Comment ça marche" }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Découvrir l'offre commerçants" }).getAttribute("href")).toBe("/offre");
    const blog = page.getByRole("region", { name: "Le blog" });
    await blog.getByRole("link").first().waitFor();
    // Newest first.
    expect(await blog.getByRole("link").first().textContent()).toContain("Bien choisir ses récompenses de fidélité");
    await expectAccessible(page);
    await snap(page, "content-home-visitor");

    await blog.getByRole("link", { name: /Pourquoi la carte à tampons ne suffit plus/ }).click();
    await page.waitForURL((url) => url.pathname === "/blog/pourquoi-la-carte-papier-ne-suffit-plus");
    await eventually(() => h1(page).textContent()).toBe("Pourquoi la carte à tampons ne suffit plus");
    await context.close();
  });

  it("FAQ: questions for shoppers and shops, in an accordion", async () => {
    const context = await stack.newContext();
    const page = await open(context, "/faq");
    expect(await h1(page).textContent()).toBe("Questions fréquentes");
    expect(await page.getByRole("heading", { level: 2 }).allTextContents()).toEqual(["Pour les clients", "Pour les commerçants"]);
    for (const q of [
      "Comment gagner des points ?",
      "Pourquoi mon scan est-il refusé juste après un autre passage ?",
      "Comment obtenir une récompense ?",
      "Quelles données gardez-vous sur moi ?",
      "Comment installer l'application sur mon téléphone ?",
      "Comment inscrire ma boutique ?",
    ]) {
      expect(await page.getByText(q, { exact: true }).count(), q).toBe(1);
    }
    const answer = page.getByText("(4 heures par défaut)", { exact: false });
    expect(await answer.isVisible()).toBe(false);
    await page.getByText("Pourquoi mon scan est-il refusé juste après un autre passage ?").click();
    await eventually(() => answer.isVisible()).toBe(true);
    await page.getByText("Comment installer l'application sur mon téléphone ?").click();
    await eventually(() => page.getByText("Sur l'écran d'accueil", { exact: false }).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "content-faq");
    // Closing again hides the answer.
    await page.getByText("Pourquoi mon scan est-il refusé juste après un autre passage ?").click();
    await eventually(() => answer.isVisible()).toBe(false);
    await context.close();
  });

  it("mentions légales: the operator's configuration, from the server", async () => {
    const context = await stack.newContext();
    const page = await open(context, "/mentions-legales");
    expect(await h1(page).textContent()).toBe("Mentions légales");
    const facts = page.locator("main dl");
    await facts.waitFor();
    for (const [label, value] of [
      ["Éditeur", LEGAL.LEGAL_COMPANY],
      ["Adresse", LEGAL.LEGAL_ADDRESS],
      ["Directeur de la publication", LEGAL.LEGAL_DIRECTOR],
      ["Hébergeur", LEGAL.LEGAL_HOST],
      ["Contact", LEGAL.LEGAL_CONTACT],
      ["Adresse du service", stack.baseUrl],
    ]) {
      const row = facts.locator("div", { has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) });
      expect(await row.locator("dd").textContent(), label).toBe(value);
    }
    expect(await page.getByRole("link", { name: LEGAL.LEGAL_CONTACT }).getAttribute("href")).toBe(`mailto:${LEGAL.LEGAL_CONTACT}`);
    await expectAccessible(page);
    await snap(page, "content-mentions-legales");
    await context.close();
  });

  it("politique de confidentialité: what, why, legal basis, how long, rights and how to use them", async () => {
    const context = await stack.newContext();
    const page = await open(context, "/politiques-de-confidentialite");
    expect(await h1(page).textContent()).toBe("Politique de confidentialité");
    const main = page.locator("main");
    await main.getByText(LEGAL.LEGAL_COMPANY).first().waitFor();
    const text = (await main.textContent()) ?? "";
    for (const needle of [
      "3 ans après votre dernière activité",
      "Base légale",
      "Durée de conservation",
      "Exécution du contrat",
      "Votre consentement",
      "Intérêt légitime",
      "Accès",
      "Rectification",
      "Effacement",
      "Portabilité",
      "Opposition",
      "CNIL",
      "un mois",
      LEGAL.LEGAL_CONTACT,
      LEGAL.LEGAL_HOST,
    ]) {
      expect(text, needle).toContain(needle);
    }
    expect(await page.getByRole("link", { name: "cnil.fr/fr/plaintes" }).getAttribute("href")).toBe("https://www.cnil.fr/fr/plaintes");
    expect(await page.getByRole("link", { name: "Modifier mon profil" }).getAttribute("href")).toBe("/edit-profil");
    await expectAccessible(page);
    await snap(page, "content-confidentialite");
    await context.close();
  });

  it("CGU: the terms of use, naming the operator", async () => {
    const context = await stack.newContext();
    const page = await open(context, "/cgu");
    expect(await h1(page).textContent()).toBe("Conditions générales d'utilisation");
    await page.locator("main").getByText(LEGAL.LEGAL_COMPANY).waitFor();
    const headings = await page.locator("main h2").allTextContents();
    expect(headings).toContain("4. Les cartes de fidélité");
    expect(headings).toContain("5. Utilisation loyale");
    expect(headings.length).toBeGreaterThanOrEqual(12);
    expect(await page.locator("main").textContent()).toContain("Les points n'ont aucune valeur monétaire");
    await expectAccessible(page);
    await context.close();
  });

  it("offre: what a shop gets, and the way in", async () => {
    const context = await stack.newContext();
    const page = await open(context, "/offre");
    expect(await h1(page).textContent()).toBe("La carte de fidélité qui fait revenir vos clients, sans tricherie.");
    const features = await page.locator("main h3").allTextContents();
    expect(features).toEqual(
      expect.arrayContaining([
        "Un code qu'on ne peut pas photographier",
        "Vos récompenses, vos règles",
        "Jeux concours",
        "Newsletters et notifications",
        "Votre liste de clients",
        "Des statistiques claires",
        "Gratuit et auto-hébergeable",
      ]),
    );
    await expectAccessible(page);
    await snap(page, "content-offre");
    // Registering a shop needs an account: the guard sends a visitor to sign in first.
    await page.getByRole("link", { name: "Inscrire ma boutique gratuitement" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/inscription-boutique");
    await context.close();
  });

  it("merci: a thank-you, worded for what it thanks", async () => {
    const context = await stack.newContext();
    const page = await open(context, "/merci");
    expect(await h1(page).textContent()).toBe("Merci !");
    expect(await page.getByRole("link", { name: "Créer mon compte" }).getAttribute("href")).toBe("/signup");
    await expectAccessible(page);
    await page.goto("/merci?sujet=avis");
    await eventually(() => h1(page).textContent()).toBe("Merci pour votre avis !");
    await snap(page, "content-merci");
    await page.goto("/merci?sujet=%3Cscript%3E");
    await eventually(() => h1(page).textContent()).toBe("Merci !");
    await context.close();
  });

  it("blog and presentation: Markdown rendered, dated in French", async () => {
    const context = await stack.newContext();
    const page = await open(context, "/blog/pourquoi-la-carte-papier-ne-suffit-plus");
    expect(await h1(page).textContent()).toBe("Pourquoi la carte à tampons ne suffit plus");
    expect(await page.locator("main time").textContent()).toBe("6 octobre 2026");
    expect(await page.locator("main article h2").allTextContents()).toContain("Un tampon s'imite, un code tournant non");
    expect(await page.locator("main article strong").first().textContent()).toBeTruthy();
    const more = page.getByRole("region", { name: "À lire aussi" });
    expect(await more.getByRole("link").count()).toBe(1);
    await expectAccessible(page);
    await snap(page, "content-blog");

    await page.goto("/presentation/fidele-en-cinq-minutes");
    await eventually(() => h1(page).textContent()).toBe("Fidèle en cinq minutes");
    expect(await page.locator("main article ol li").count()).toBe(4);
    // An in-app link of the Markdown navigates inside the app.
    await page.locator("main article").getByRole("link", { name: "politique de confidentialité" }).click();
    await page.waitForURL((url) => url.pathname === "/politiques-de-confidentialite");
    await eventually(() => h1(page).textContent()).toMatch(/confidentialité/i);
    await expectAccessible(page);
    await context.close();
  });

  it("an unknown or malformed article slug is the app's 404", async () => {
    const context = await stack.newContext();
    const page = await context.newPage();
    expect((await page.goto("/blog/pourquoi-la-carte-papier-ne-suffit-plus"))?.status()).toBe(200);
    expect((await page.goto("/presentation/fidele-en-cinq-minutes"))?.status()).toBe(200);
    for (const path of ["/blog/article-inconnu", "/presentation/Mauvais_Nom", "/blog/fidele-en-cinq-minutes"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await eventually(() => h1(page).textContent()).toBe("Page introuvable");
      expect(await page.getByText(`Page not found: ${path}`, { exact: true }).count(), path).toBe(1);
      await eventually(() => page.title()).toBe("Page Not Found");
    }
    await expectAccessible(page);
    await snap(page, "content-blog-404");
    await context.close();
  });
});

describe("signed in", () => {
  it("home: greeting, cards and nearby shops at a glance; a shop owner's way to the back-office", async () => {
    const user = await stack.createUser({ firstName: "Léa" });
    const context = await stack.newContext();
    await stack.signIn(context, user.email, user.password);
    const page = await open(context, "/");
    expect(await h1(page).textContent()).toBe("Bonjour Léa");
    expect(await page.getByRole("heading", { name: "Vos cartes en un coup d'œil" }).count()).toBe(1);
    expect(await page.getByRole("link", { name: "Scanner un code" }).getAttribute("href")).toBe("/scanner");
    expect(await page.getByRole("link", { name: "Mes cartes" }).getAttribute("href")).toBe("/cartes-de-fidelite");
    expect(await page.getByRole("link", { name: "À proximité" }).getAttribute("href")).toBe("/boutique-a-proximite");
    expect(await page.getByRole("link", { name: /Espace commerçant/ }).count()).toBe(0);
    await expectAccessible(page);
    await snap(page, "content-home-signed-in");

    await stack.createShop(user.id, { name: "Fleurs de Léa" });
    await page.reload();
    await h1(page).waitFor();
    const tile = page.getByRole("link", { name: /Espace commerçant/ });
    await tile.waitFor();
    expect(await tile.getAttribute("href")).toBe("/admin");
    expect(await tile.textContent()).toContain("Fleurs de Léa");
    await context.close();
  });

  it("dashboard: the account's facts, profile completeness and shops, with links", async () => {
    const user = await stack.createUser({ firstName: "Noé" });
    await stack.createShop(user.id, { name: "Épicerie Noé" });
    const context = await stack.newContext();
    await stack.signIn(context, user.email, user.password);
    const page = await open(context, "/dashboard");
    expect(await h1(page).textContent()).toBe("Mon activité");
    // The ledger across shops (components/activity-list.tsx), empty for a new account.
    await page.getByRole("region", { name: "Mon activité récente" }).getByText("Aucune activité pour l'instant.", { exact: false }).waitFor();
    const today = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/Paris" }).format(new Date());
    const fact = (label: string) => page.locator("main dl div", { has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) }).locator("dd > span").first();
    await eventually(() => fact("Membre depuis").textContent()).toBe(today);
    await eventually(() => fact("Sessions ouvertes").textContent()).toBe("1");
    expect(await fact("Dernière activité").textContent()).toMatch(/^(aujourd'hui à \d{1,2} h \d\d|maintenant)$/);
    expect(await fact("Adresse e-mail").textContent()).toBe(`${user.email}vérifiée`);
    expect(await fact("Double authentification").textContent()).toBe("Désactivée");
    // createUser fills first and last name only: 2 of 4 fields.
    expect(await page.getByRole("progressbar", { name: "Profil complété" }).getAttribute("aria-valuenow")).toBe("50");
    expect(await page.getByText("50 % complété").count()).toBe(1);
    expect(await page.getByText("À compléter : date de naissance, code postal.").count()).toBe(1);
    expect(await page.getByRole("link", { name: "Modifier mon profil →" }).getAttribute("href")).toBe("/edit-profil");
    expect(await page.getByRole("link", { name: "Espace commerçant" }).getAttribute("href")).toBe("/admin");
    expect(await page.getByText("Épicerie Noé").count()).toBe(1);
    await expectAccessible(page);
    await snap(page, "content-dashboard");
    await context.close();
  });

  it("every content page is accessible with the tab bar showing", async () => {
    const user = await stack.createUser();
    const context = await stack.newContext();
    await stack.signIn(context, user.email, user.password);
    const page = await context.newPage();
    for (const path of ["/faq", "/cgu", "/mentions-legales", "/politiques-de-confidentialite", "/offre", "/merci", "/blog/bien-choisir-ses-recompenses", "/presentation/fidele-en-cinq-minutes"]) {
      await page.goto(path);
      await h1(page).waitFor();
      await page.getByRole("navigation", { name: "Navigation principale" }).waitFor();
      await page.waitForLoadState("networkidle");
      await expectAccessible(page);
    }
    await context.close();
  });
});
