import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shops } from "../../src/server/db/schema/index.ts";
import { accessibilityViolations, expectAccessible, open, snap, type Stack, startStack, unique } from "../setup/e2e.ts";
import { eventually } from "../setup/eventually.ts";

/**
 * Issue 29, in the browser at 390×844: the owner creates an API key on /admin/caisse (shown once, then listed), a
 * till uses it to credit an amount, the owner subscribes a webhook (a receiver on localhost, trusted by the
 * operator's WEBHOOK_TRUSTED_ORIGINS) and sees its deliveries, then sends one again. axe on each step.
 */
let stack: Stack;
let receiver: http.Server;
let received: { type: string; id: string }[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      received.push({ type: JSON.parse(body).type, id: String(req.headers["webhook-id"]) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const { port } = receiver.address() as AddressInfo;
  stack = await startStack({ env: { WEBHOOK_TRUSTED_ORIGINS: `http://127.0.0.1:${port}` } });
});
afterAll(async () => {
  await stack?.close();
  await new Promise((r) => receiver?.close(r));
});

describe("/admin/caisse", () => {
  it("the owner creates a key, a till credits with it, the owner subscribes a webhook and sees its deliveries", async () => {
    received = [];
    const owner = await stack.createUser({ firstName: "Lina", lastName: "Caisse" });
    const shop = await stack.createShop(owner.id, { name: `Épicerie ${unique()}` });
    const context = await stack.signedIn(owner);
    const page = await context.newPage();
    await open(page, "/admin/caisse", "Caisse et API");
    await expectAccessible(page);

    // A key, shown once.
    const keys = page.getByRole("region", { name: "Clés d'API" });
    await keys.getByLabel("Nom de la clé").fill("Caisse du comptoir");
    await keys.getByRole("button", { name: "Créer la clé" }).click();
    const shown = keys.getByRole("status").filter({ hasText: "Votre clé « Caisse du comptoir »" });
    await eventually(() => shown.count()).toBe(1);
    const secret = (await shown.locator("code").textContent())?.trim() ?? "";
    expect(secret).toMatch(/^fid_/);
    await eventually(() => keys.getByRole("list", { name: "Clés de la boutique" }).textContent()).toContain(
      "Jamais utilisée",
    );
    await expectAccessible(page);
    await snap(page, "till-api-key", { fullPage: true });

    // A webhook to the local receiver.
    const { port } = receiver.address() as AddressInfo;
    const hooks = page.getByRole("region", { name: "Webhooks" });
    await hooks.getByLabel("Adresse de réception").fill(`http://127.0.0.1:${port}/fidele`);
    await hooks.getByRole("button", { name: "Ajouter l'adresse" }).click();
    await eventually(() => hooks.getByText("Secret de signature").count()).toBe(1);
    await expectAccessible(page);

    // A customer shows their personal code at the till; the till credits a visit with the key.
    const customer = await stack.createUser({ firstName: "Paul" });
    const customerContext = await stack.signedIn(customer);
    const code = (await (await customerContext.request.get(`${stack.baseUrl}/api/cards/personal-code`)).json())
      .personalCode.code as string;
    const credit = await fetch(`${stack.baseUrl}/api/till/credits`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        "content-type": "application/json",
        "idempotency-key": randomUUID(),
      },
      body: JSON.stringify({ customerCode: code }),
    });
    expect(credit.status).toBe(200);
    expect((await credit.json()).outcome).toBe("accepted");
    await eventually(() => received.map((r) => r.type).sort()).toEqual(["customer.joined", "visit.credited"]);

    // The owner sees the deliveries, and sends one again.
    await hooks.getByRole("button", { name: "Voir les envois" }).click();
    const log = hooks.getByRole("list", { name: "Envois" });
    await eventually(() => log.textContent()).toContain("Passage crédité · Reçu");
    expect(await log.textContent()).toContain("Essai 1");
    expect(await log.textContent()).toContain("réponse 204");
    await expectAccessible(page);
    await snap(page, "till-webhook-deliveries", { fullPage: true });
    await log.getByRole("button", { name: /^Renvoyer « Passage crédité »/ }).click();
    await eventually(() => log.textContent()).toContain("Essai 2 (renvoyé)");
    await eventually(() => received.filter((r) => r.type === "visit.credited").length).toBe(2);
    await expectAccessible(page);

    // The key shows its last use; revoked, it is refused.
    await page.reload();
    await eventually(() => keys.getByRole("list", { name: "Clés de la boutique" }).textContent()).toContain(
      "Dernière utilisation",
    );
    await keys.getByRole("button", { name: "Révoquer la clé « Caisse du comptoir »" }).click();
    await eventually(() => keys.getByRole("list", { name: "Clés de la boutique" }).textContent()).toContain("Révoquée");
    const refused = await fetch(`${stack.baseUrl}/api/till/rewards`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(refused.status).toBe(401);
    await expectAccessible(page);
    expect(shop.id).toBeTruthy();
  });

  it("a shopper opens a receipt's QR code (made by the reference script): its amount's points, once", async () => {
    const owner = await stack.createUser({ firstName: "Rémi" });
    const shop = await stack.createShop(owner.id, { name: `Fromagerie ${unique()}` });
    const receiptKey = randomBytes(32).toString("base64url");
    const [row] = await stack.deps.db
      .update(shops)
      .set({ cardMode: "points", earnBy: "amount", pointsPerEuro: 1, receiptSecret: receiptKey })
      .where(eq(shops.id, shop.id))
      .returning({ scanUid: shops.scanUid });
    const [, url] = execFileSync(
      process.execPath,
      [
        "scripts/receipt-code.mjs",
        "--key",
        receiptKey,
        "--shop",
        row!.scanUid,
        "--receipt",
        "T-77",
        "--amount",
        "18,40",
        "--url",
        stack.baseUrl,
      ],
      { encoding: "utf8" },
    )
      .trim()
      .split("\n");
    const shopper = await stack.createUser({ firstName: "Nour" });
    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    await open(page, url!.replace(stack.baseUrl, ""), "Points ajoutés");
    await eventually(() => page.getByRole("status").first().textContent()).toContain("18 points ajoutés");
    expect(await page.getByText("Montant du ticket : 18,40 €").count()).toBe(1);
    await expectAccessible(page);
    await snap(page, "till-ticket");
    // The same code again (another tab, later): refused, said plainly.
    const again = await context.newPage();
    await open(again, url!.replace(stack.baseUrl, ""), "Ticket non crédité");
    await eventually(() => again.getByRole("status").first().textContent()).toContain("déjà été utilisé");
    await expectAccessible(again);
  });

  it("the owner sets a points card to earn by amount; the card states its rule and rounding", async () => {
    const owner = await stack.createUser({ firstName: "Iris" });
    const shop = await stack.createShop(owner.id, { name: `Primeur ${unique()}` });
    await stack.deps.db.update(shops).set({ cardMode: "points" }).where(eq(shops.id, shop.id));
    const context = await stack.signedIn(owner);
    const page = await context.newPage();
    await open(page, "/admin/creativcard", "Carte et règles");
    await page.getByLabel("Les points se gagnent").selectOption("amount");
    await page.getByLabel("Arrondi").selectOption("nearest");
    await eventually(() =>
      page.getByText("Sur la carte : « 1 point par euro dépensé, arrondi au point le plus proche »").count(),
    ).toBe(1);
    await page.getByRole("button", { name: "Enregistrer la carte" }).click();
    await eventually(() => page.getByText("Carte enregistrée.").isVisible()).toBe(true);
    const [saved] = await stack.deps.db.select().from(shops).where(eq(shops.id, shop.id));
    expect(saved).toMatchObject({ earnBy: "amount", pointsPerEuro: 1, amountRounding: "nearest" });
    expect(await accessibilityViolations(page, { exclude: ['[data-testid="card-preview"]'] })).toEqual([]);
    await snap(page, "till-card-by-amount", { fullPage: true });
  });
});
