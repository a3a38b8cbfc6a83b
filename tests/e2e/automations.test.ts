import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCodeKey, rotatingToken, scanUrl, timeStep } from "../../src/domain/loyalty/scan-code.ts";
import { createReward, recordVisit } from "../../src/server/db/factories.ts";
import { shops } from "../../src/server/db/schema/index.ts";
import type { JobName } from "../../src/server/jobs/payloads.ts";
import { eventually, expectAccessible, heading, open, snap, type Stack, startStack, unique } from "../setup/e2e.ts";
import { until } from "../setup/timing.ts";
import { openAfter } from "../fixtures/send-window.ts";

/**
 * Issue 27, acceptance row 5, in the browser at 390×844 (ADR 0046): the owner turns the win-back on in
 * /admin/automatisations; the clock moves 31 days (the job automations.run sent with `now`, as its schedule would
 * run it then); the server's own engine sends it and the shopper reads it in their inbox; they come back (the
 * counter's code, scanned); the job automations.measure measures what followed and the owner's results move from
 * 0 to 1 return. axe on every page on the way.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const DAY = 86_400_000;

/** Sends a job through the server's engine with the clock in its data, and waits for it to complete. */
async function runJob(name: Extract<JobName, "automations.run" | "automations.measure">, now: Date) {
  // Both queues are stately: while their schedule's own job (every 5 minutes) waits to run, a second is refused
  // (send gives null). Send again until ours is taken.
  const id = await until(`${name} to be queued`, () => stack.deps.jobs.send(name, { now: now.toISOString() }), {
    interval: 500,
  });
  await until(`${name} to complete`, async () => {
    const [job] = (await stack.deps.jobs.boss?.findJobs(name, { id })) ?? [];
    if (job?.state === "failed") throw new Error(`${name} failed: ${JSON.stringify(job.output)}`);
    return job?.state === "completed";
  });
}

describe("automations", () => {
  it("issue 27 row 5: the owner turns win-back on, the clock moves, the shopper reads it, comes back, and the owner's results move", async () => {
    const owner = await stack.createUser({ firstName: "Odile", lastName: "Marchand" });
    const shop = await stack.createShop(owner.id, { name: `Fournil ${unique()}` });
    // Five customers who came yesterday (one of them will be our shopper: the one not drawn into the holdout).
    const lastVisit = new Date(Date.now() - DAY);
    const customers = [];
    for (let i = 0; i < 5; i++) {
      const c = await stack.createUser({ firstName: `Client${i}`, lastName: "Fidèle" });
      await recordVisit(stack.deps, { shopId: shop.id, userId: c.id, at: lastVisit });
      customers.push(c);
    }

    // The owner turns « Vous nous manquez » on.
    const ownerContext = await stack.signedIn(owner);
    const admin = await ownerContext.newPage();
    await open(admin, "/admin/automatisations", "Automatisations");
    const winBack = admin.getByRole("region", { name: "Vous nous manquez" });
    await eventually(() => winBack.getByText("Désactivée").count()).toBe(1);
    await expectAccessible(admin);
    await winBack.getByText("Régler le message").click();
    await eventually(() => winBack.getByLabel("Après combien de jours sans visite ?").inputValue()).toBe("30");
    await eventually(() =>
      admin.getByRole("figure", { name: "Aperçu sur un téléphone" }).first().textContent(),
    ).toContain("Vous nous manquez !");
    await expectAccessible(admin);
    await snap(admin, "automations-settings", { fullPage: true });
    await winBack.getByLabel("Envoyer « Vous nous manquez » automatiquement").check();
    await eventually(() => winBack.getByText("Activée", { exact: true }).count()).toBe(1);

    // The clock moves 31 days: the job decides, the engine sends.
    const later = openAfter(lastVisit, 31);
    await runJob("automations.run", later);
    const occasions = (
      await stack.deps.db.execute<{ user_id: string; holdout: boolean; message_id: string | null }>(sql`
        select user_id, holdout, message_id from automation_occasions where shop_id = ${shop.id}`)
    ).rows;
    expect(occasions).toHaveLength(5);
    const sent = occasions.find((o) => !o.holdout)!;
    const shopper = customers.find((c) => c.id === sent.user_id)!;
    await until("the win-back to be sent", async () => {
      const [m] = (
        await stack.deps.db.execute<{ status: string }>(sql`select status from messages where id = ${sent.message_id}`)
      ).rows;
      return m?.status === "sent";
    });
    await runJob("automations.measure", later);
    await admin.reload();
    await eventually(() => winBack.getByTestId("sent-returned").textContent()).toMatch(/^0 sur \d revenus$/);

    // The shopper reads it in their inbox.
    const shopperContext = await stack.signedIn(shopper);
    const page = await shopperContext.newPage();
    await open(page, "/notifications", "Notifications");
    const item = page.getByTestId("inbox-item").filter({ hasText: "Vous nous manquez !" });
    await eventually(() => item.count()).toBe(1);
    await expectAccessible(page);
    await item.click();
    await eventually(() => heading(page)).toBe("Vous nous manquez !");
    await eventually(() => page.getByText("votre carte de fidélité vous attend", { exact: false }).count()).toBe(1);
    await expectAccessible(page);

    // They come back: the counter's code, scanned.
    const [row] = await stack.deps.db
      .select({ scanUid: shops.scanUid, codeSecret: shops.codeSecret })
      .from(shops)
      .where(eq(shops.id, shop.id));
    const token = await rotatingToken(await importCodeKey(row!.codeSecret), row!.scanUid, timeStep(Date.now()));
    await page.goto(scanUrl(stack.baseUrl, { scanUid: row!.scanUid, token, poster: null }));
    await eventually(() => heading(page)).toBe("Passage validé !");

    // A day on, what followed is measured again; the owner's results move.
    await runJob("automations.measure", new Date(later.getTime() + DAY));
    await admin.reload();
    await eventually(() => winBack.getByTestId("sent-returned").textContent()).toMatch(/^1 sur \d revenus$/);
    await eventually(() => winBack.getByTestId("sent-rate").textContent()).not.toBe("0 %");
    await expectAccessible(admin);
    await winBack.scrollIntoViewIfNeeded();
    await snap(admin, "automations-results");

    // The dashboard's « Fidélisation » section reads too.
    await open(admin, "/admin", "Tableau de bord");
    await eventually(() =>
      admin.getByRole("region", { name: "Fidélisation" }).getByText("Reviennent-ils ?").count(),
    ).toBe(1);
    await expectAccessible(admin);
    await snap(admin, "dashboard-retention", { fullPage: true });
  });

  it("issue 27 item 1: merge fields and an offer — the preview fills them for an example customer, an unknown field is refused, the shopper reads their own name and claims the offer from their card", async () => {
    const owner = await stack.createUser({ firstName: "Paul", lastName: "Marchand" });
    const shop = await stack.createShop(owner.id, { name: `Fournil ${unique()}` });
    await createReward(stack.deps, { shopId: shop.id, title: "Croissant offert", cost: 8 });
    const shopper = await stack.createUser({ firstName: "Zoé", lastName: "Fidèle" });
    const start = new Date(Date.now() - 45 * DAY);
    await recordVisit(stack.deps, { shopId: shop.id, userId: shopper.id, at: start });

    const ownerContext = await stack.signedIn(owner);
    const admin = await ownerContext.newPage();
    await open(admin, "/admin/automatisations", "Automatisations");
    const winBack = admin.getByRole("region", { name: "Vous nous manquez" });
    await winBack.getByText("Régler le message").click();
    const preview = winBack.getByRole("figure", { name: "Aperçu sur un téléphone" });
    await winBack.getByLabel("Titre", { exact: true }).fill("{{prenom}}, vous nous manquez !");
    await eventually(() => preview.textContent()).toContain("Camille, vous nous manquez !");
    await winBack.getByLabel("Offre jointe (facultative)").selectOption({ label: "Une récompense offerte" });
    await winBack.getByLabel("Récompense offerte").selectOption({ label: "Croissant offert" });
    await winBack.getByLabel("Valable combien de jours ?").fill("30");
    await eventually(() => preview.textContent()).toContain(
      "Votre offre : « Croissant offert » offert, à demander en boutique depuis votre carte, pendant 30 jours.",
    );
    await winBack.getByLabel("Groupe témoin (%)").fill("0");
    await winBack.getByLabel("J'ai compris, je ne veux pas de groupe témoin").check();
    // An unknown field is refused, named, in French.
    await winBack.getByLabel("Texte", { exact: true }).fill("Bonjour {{prenon}} !");
    await winBack.getByRole("button", { name: "Enregistrer le message" }).click();
    await eventually(() => winBack.getByText("Champ de fusion inconnu : {{prenon}}.", { exact: false }).count()).toBe(
      1,
    );
    await expectAccessible(admin);
    await winBack.getByLabel("Texte", { exact: true }).fill("Votre solde : {{points}}.");
    await winBack.getByRole("button", { name: "Enregistrer le message" }).click();
    await eventually(() => winBack.getByText("Champ de fusion inconnu", { exact: false }).count()).toBe(0);
    // Saved and read back (no holdout any more) before the switch, which sends the settings as read.
    await eventually(() => winBack.getByTestId("expected-sends").textContent()).not.toContain("groupe témoin");
    await winBack.getByLabel("Envoyer « Vous nous manquez » automatiquement").check();
    await eventually(() => winBack.getByText("Activée", { exact: true }).count()).toBe(1);
    await expectAccessible(admin);
    await snap(admin, "automations-offer-settings", { fullPage: true });

    // Decided 31 days after the last visit (some two weeks ago): the offer runs until two weeks from now.
    await runJob("automations.run", openAfter(start, 31));
    const [occasion] = (
      await stack.deps.db.execute<{ message_id: string }>(sql`
        select message_id from automation_occasions where shop_id = ${shop.id}`)
    ).rows;
    await until("the win-back to be sent", async () => {
      const [m] = (
        await stack.deps.db.execute<{ status: string }>(
          sql`select status from messages where id = ${occasion!.message_id}`,
        )
      ).rows;
      return m?.status === "sent";
    });

    // The shopper reads their own name, balance and offer.
    const shopperContext = await stack.signedIn(shopper);
    const page = await shopperContext.newPage();
    await open(page, "/notifications", "Notifications");
    const item = page.getByTestId("inbox-item").filter({ hasText: "Zoé, vous nous manquez !" });
    await eventually(() => item.count()).toBe(1);
    await item.click();
    await eventually(() => heading(page)).toBe("Zoé, vous nous manquez !");
    await eventually(() => page.getByText("Votre solde : 1.", { exact: false }).count()).toBe(1);
    await expectAccessible(page);

    // On their card, then claimed from the gifts page: a code for the counter.
    await open(page, "/cartes-de-fidelite", "Mes cartes");
    await eventually(() => page.getByTestId("card-offers").textContent()).toContain("« Croissant offert » offert");
    await expectAccessible(page);
    await snap(page, "card-offer");
    await page.getByRole("link", { name: /^Recevoir mon offre/ }).click();
    const gift = page.getByText("Croissant offert — offert jusqu'au", { exact: false });
    await eventually(() => gift.count()).toBe(1);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Recevoir mon cadeau" }).click();
    await page.waitForURL(/\/validation-recompense\//);
    await eventually(() => page.getByText("Croissant offert", { exact: false }).count()).not.toBe(0);
    await expectAccessible(page);
  });
});
