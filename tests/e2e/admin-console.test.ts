import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCodeKey, rotatingToken, timeStep } from "../../src/domain/loyalty/scan-code.ts";
import { shops } from "../../src/server/db/schema/index.ts";
import { eventually, expectAccessible, open, snap, type Stack, startStack, unique } from "../setup/e2e.ts";

/** The platform admin's console at 390×844 (issue 16, items 1–4). */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe("platform admin console", () => {
  it("the admin suspends a shop with a reason (its scans are refused in French) and confirms a newcomer from the outbox", async () => {
    const password = "mot-de-passe-admin";
    const admin = await stack.createUser({ email: `admin-${unique(8)}@test.fidele.local`, password, role: "admin" });
    const owner = await stack.createUser({ withoutPassword: true });
    const shopName = `Fromagerie ${unique(8)}`;
    const shop = await stack.createShop(owner.id, { name: shopName });
    const context = await stack.newContext();
    await stack.signIn(context, admin.email, password);
    const page = await context.newPage();

    await open(page, "/admin", /^Administration$/);
    await eventually(() => page.getByText("Activité des 30 derniers jours").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "admin-platform");
    // The console's views are tabs: the shops are one of them.
    const tabs = page.getByRole("navigation", { name: "Console" });
    await tabs.getByRole("link", { name: "Boutiques" }).click();
    await page.waitForURL((url) => url.search === "?vue=boutiques");
    expect(await tabs.getByRole("link", { name: "Boutiques" }).getAttribute("aria-current")).toBe("page");
    await eventually(() => page.getByText(shopName).isVisible()).toBe(true);
    expect(await page.getByText("Activité des 30 derniers jours").count()).toBe(0);
    await expectAccessible(page);
    await snap(page, "admin-platform-shops");

    // Suspend with a reason.
    await page.getByRole("button", { name: `Suspendre ${shopName}` }).click();
    await page.getByLabel("Motif de la suspension").fill("Impayés répétés");
    await page.getByRole("button", { name: "Confirmer la suspension" }).click();
    await eventually(() => page.getByText("Suspendue : Impayés répétés").isVisible()).toBe(true);

    // A shopper's scan there is refused, in French.
    const shopper = await stack.createUser({ password: "mot-de-passe-client" });
    const shopperContext = await stack.newContext();
    await stack.signIn(shopperContext, shopper.email, "mot-de-passe-client");
    const customer = await stack.newContext();
    const [row] = await stack.deps.db.select().from(shops).where(eq(shops.id, shop.id));
    const token = await rotatingToken(await importCodeKey(row!.codeSecret), row!.scanUid, timeStep(Date.now()));
    const newcomerEmail = `nouveau-${unique(8)}@test.fidele.local`;
    const signUp = await customer.request.post(`${stack.baseUrl}/api/accounts/sign-up`, {
      data: { email: newcomerEmail, password: "mot-de-passe-nouveau" },
      headers: { origin: stack.baseUrl },
    });
    expect(signUp.ok()).toBe(true);
    const scan = await shopperContext.request.post(`${stack.baseUrl}/api/cards/scan`, {
      data: { scanUid: row!.scanUid, token, idempotencyKey: randomUUID() },
      headers: { origin: stack.baseUrl },
    });
    const answer = await scan.json();
    expect(answer).toMatchObject({ accepted: false, outcome: "suspended" });
    expect(answer.message).toBe(
      `${shopName} est momentanément suspendue sur Fidèle : aucun passage ne peut être crédité.`,
    );

    // The newcomer's confirmation e-mail, read on the outbox, confirms the account.
    await open(page, "/admin?vue=envois", "Administration");
    const outbox = page.getByRole("region", { name: "Boîte d'envoi des courriels" });
    const mail = outbox.getByRole("listitem").filter({ hasText: newcomerEmail }).first();
    await eventually(() => mail.isVisible()).toBe(true);
    const link = await mail.getByRole("link").filter({ hasText: "verify-email" }).first().getAttribute("href");
    expect(link).toContain("verify-email");
    const newcomerPage = await customer.newPage();
    await newcomerPage.goto(link!);
    await newcomerPage.waitForURL((url) => url.pathname === "/confirm");
    await eventually(() => newcomerPage.getByText("est confirmée").first().isVisible()).toBe(true);

    // Users: the admin finds the shopper and signs them out everywhere.
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Comptes" }).click();
    await page.getByLabel("Rechercher un compte (e-mail, nom)").fill(shopper.email);
    // Its accessible name starts with its visible label (issue 25 row 17), then says whose sessions.
    const signOutEverywhere = page.getByRole("button", { name: /^Déconnecter partout : / });
    await eventually(() => signOutEverywhere.count()).toBe(1);
    await expectAccessible(page);
    await signOutEverywhere.click();
    await eventually(() => signOutEverywhere.count()).toBe(0);
    const me = await shopperContext.request.get(`${stack.baseUrl}/api/accounts/me`);
    expect((await me.json()).me).toBeNull();

    // The log shows the suspension; each console page passes axe.
    await open(page, "/admin/logs", /^Journal$/);
    await eventually(() => page.getByText("Motif : Impayés répétés").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "admin-logs");
    await open(page, "/admin/connected", /^Connectés$/);
    await expectAccessible(page);
    await open(page, "/admin/sessions", /^Sessions$/);
    await eventually(() => page.getByText("cet appareil", { exact: false }).first().isVisible()).toBe(true);
    // The approximate place: the browser's time zone (Europe/Paris here) and the network (local on this machine).
    await eventually(() => page.getByText("France · réseau local", { exact: false }).first().isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "admin-sessions");
  });
});
