import { eq, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCodeKey, rotatingToken, scanUrl, timeStep } from "../../src/domain/loyalty/scan-code.ts";
import { recordVisit } from "../../src/server/db/factories.ts";
import { shops } from "../../src/server/db/schema/index.ts";
import type { JobName } from "../../src/server/jobs/payloads.ts";
import { openAfter } from "../fixtures/send-window.ts";
import { eventually, expectAccessible, heading, open, snap, type Stack, startStack, unique } from "../setup/e2e.ts";
import { until } from "../setup/timing.ts";

/**
 * Issue 28 items 1 and 2 in the browser at 390×844 (ADR 0048), axe on every page on the way.
 * Parrainage: the owner sets it; a customer shares their link from their card; a friend accepts it (nothing given);
 * the friend's visit at the counter (the rotating code) releases both; two accounts on one device are held and the
 * owner sees why, then decides. Reviews: the owner turns requests on; the job (clock in the send window) asks the
 * customer; they read it in their inbox, follow it and leave a review; the owner sees the request and the review.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function runJob(name: Extract<JobName, "referrals.release" | "reviews.request">, data: { now?: string } = {}) {
  const id = await stack.deps.jobs.send(name, data);
  if (!id) throw new Error(`${name} not queued`);
  await until(`${name} to complete`, async () => {
    const [job] = (await stack.deps.jobs.boss?.findJobs(name, { id })) ?? [];
    if (job?.state === "failed") throw new Error(`${name} failed: ${JSON.stringify(job.output)}`);
    return job?.state === "completed";
  });
}

async function scanAtCounter(page: Page, shopId: string) {
  const [row] = await stack.deps.db
    .select({ scanUid: shops.scanUid, codeSecret: shops.codeSecret })
    .from(shops)
    .where(eq(shops.id, shopId));
  const token = await rotatingToken(await importCodeKey(row!.codeSecret), row!.scanUid, timeStep(Date.now()));
  await page.goto(scanUrl(stack.baseUrl, { scanUid: row!.scanUid, token, poster: null }));
  await eventually(() => heading(page)).toBe("Passage validé !");
}

const referralPoints = async (shopId: string, userId: string) =>
  Number(
    (
      await stack.deps.db.execute<{ n: number }>(sql`
        select coalesce(sum(l.delta), 0)::int as n from ledger_entries l join cards c on c.id = l.card_id
        where l.shop_id = ${shopId} and c.user_id = ${userId} and l.kind = 'referral'`)
    ).rows[0]?.n ?? 0,
  );

describe("parrainage and review requests", () => {
  it("parrainage: shared from the card, released by the friend's visit at the counter, a ring held for the owner", async () => {
    const owner = await stack.createUser({ firstName: "Odile", lastName: "Marchand" });
    const shop = await stack.createShop(owner.id, { name: `Fournil ${unique()}` });
    const ownerContext = await stack.signedIn(owner);
    const admin = await ownerContext.newPage();
    await open(admin, "/admin/parrainage", "Parrainage");
    await admin.getByLabel("Proposer le parrainage à mes clients").check();
    const sponsorSide = admin.getByRole("group", { name: "Le parrain" });
    await sponsorSide.getByLabel("Nombre de tampons").fill("3");
    await admin.getByRole("group", { name: "Le filleul" }).getByLabel("Nombre de tampons").fill("2");
    await admin.getByLabel("Parrainages récompensés par parrain et par mois").fill("2");
    await expectAccessible(admin);
    await admin.getByRole("button", { name: "Enregistrer" }).click();
    await eventually(() => admin.getByText("Réglages enregistrés.").count()).toBe(1);
    await snap(admin, "referrals-settings", { fullPage: true });

    // The sponsor, a customer, shares their link from their card.
    const sponsor = await stack.createUser({ firstName: "Sophie", lastName: "Durand" });
    await recordVisit(stack.deps, { shopId: shop.id, userId: sponsor.id, at: new Date(Date.now() - 86_400_000) });
    const sponsorPage = await (await stack.signedIn(sponsor)).newPage();
    await open(sponsorPage, "/cartes-de-fidelite", "Mes cartes");
    await sponsorPage.getByRole("link", { name: `Parrainer un proche chez ${shop.name}` }).click();
    await eventually(() => heading(sponsorPage)).toBe("Parrainer un proche");
    const link = sponsorPage.getByTestId("referral-link");
    await eventually(() => link.textContent()).toContain("/parrainage/");
    await eventually(() => sponsorPage.getByRole("img", { name: /QR code de votre lien/ }).count()).toBe(1);
    await expectAccessible(sponsorPage);
    await snap(sponsorPage, "referrals-share");
    const url = new URL((await link.textContent())!);

    // The friend accepts: nothing is given yet.
    const friend = await stack.createUser({ firstName: "Fanny", lastName: "Petit" });
    const friendPage = await (await stack.signedIn(friend)).newPage();
    await open(friendPage, url.pathname, "Invitation de parrainage");
    await eventually(() => friendPage.getByText(`Sophie vous invite chez ${shop.name}`).count()).toBe(1);
    await expectAccessible(friendPage);
    await friendPage.getByRole("button", { name: "Accepter l'invitation" }).click();
    await eventually(() => friendPage.getByText("Invitation acceptée.", { exact: false }).count()).toBe(1);
    await expectAccessible(friendPage);
    await snap(friendPage, "referrals-accepted");
    expect(await referralPoints(shop.id, friend.id)).toBe(0);

    // The friend's first visit at the counter: the server's engine releases both.
    await scanAtCounter(friendPage, shop.id);
    await until("the referral to be released", async () => (await referralPoints(shop.id, sponsor.id)) === 3);
    expect(await referralPoints(shop.id, friend.id)).toBe(2);

    // Two more « friends » on one device and network: held, and the owner sees why.
    const ring = [];
    for (const name of ["Remi", "Rose"]) {
      const u = await stack.createUser({ firstName: name, lastName: "Anneau" });
      await stack.deps.db.execute(sql`
        insert into referrals (shop_id, sponsor_id, friend_id, device_id, network)
        values (${shop.id}, ${sponsor.id}, ${u.id}, 'one-phone-for-all', '198.51.7.0/24')`);
      await recordVisit(stack.deps, { shopId: shop.id, userId: u.id, at: new Date() });
      ring.push(u);
    }
    await runJob("referrals.release");
    await admin.reload();
    const held = admin.getByRole("list", { name: "Parrainages à vérifier" }).getByRole("listitem");
    await eventually(() => held.count()).toBe(2);
    await eventually(() => held.first().textContent()).toContain("même appareil");
    await eventually(() =>
      admin.getByRole("list", { name: "Parrainages" }).getByText("Sophie Durand → Fanny Petit").count(),
    ).toBe(1);
    await expectAccessible(admin);
    await snap(admin, "referrals-ring", { fullPage: true });
    // No sideways scroll on the narrowest phone (tests/e2e/no-sideways-scroll.test.ts's rule).
    await admin.setViewportSize({ width: 320, height: 844 });
    expect(await admin.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await admin.setViewportSize({ width: 390, height: 844 });
    await held.first().getByRole("button", { name: "Refuser" }).click();
    await eventually(() => held.count()).toBe(1);
    await held.first().getByRole("button", { name: "Récompenser" }).click();
    await eventually(() => held.count()).toBe(0);
    // The cap of 2 a month: the sponsor got 3 for Fanny, 3 for the one released, nothing more.
    expect(await referralPoints(shop.id, sponsor.id)).toBe(6);
    await expectAccessible(admin);
  });

  it("review requests: the owner turns them on, the customer is asked once, reviews, and the owner sees both", async () => {
    const owner = await stack.createUser({ firstName: "Paul", lastName: "Martin" });
    const shop = await stack.createShop(owner.id, { name: `Salon ${unique()}` });
    const admin = await (await stack.signedIn(owner)).newPage();
    await open(admin, "/admin/avis", "Avis clients");
    await admin.getByLabel("Demander un avis après un passage").check();
    await eventually(() => admin.getByTestId("review-preview").textContent()).toContain(`Votre avis sur ${shop.name}`);
    await expectAccessible(admin);
    await admin.getByRole("button", { name: "Enregistrer" }).click();
    await eventually(() => admin.getByText("Réglages enregistrés.").count()).toBe(1);
    await snap(admin, "reviews-settings", { fullPage: true });

    // A first visit; the job runs with the clock inside the send window.
    const customer = await stack.createUser({ firstName: "Claire", lastName: "Bernard" });
    const now = openAfter(new Date(), 0);
    await recordVisit(stack.deps, { shopId: shop.id, userId: customer.id, at: new Date(now.getTime() - 3_600_000) });
    await runJob("reviews.request", { now: now.toISOString() });
    await runJob("reviews.request", { now: now.toISOString() });
    const requests = await stack.deps.db.execute(sql`select id from review_requests where shop_id = ${shop.id}`);
    expect(requests.rows).toHaveLength(1);

    const page = await (await stack.signedIn(customer)).newPage();
    await open(page, "/notifications", "Notifications");
    const item = page.getByTestId("inbox-item").filter({ hasText: `Votre avis sur ${shop.name}` });
    await eventually(() => item.count()).toBe(1);
    await expectAccessible(page);
    await open(page, `/review?shop=${shop.slug}`, "Donner mon avis");
    await page.getByRole("radio", { name: /^4 étoiles sur 5/ }).check({ force: true });
    await page.getByLabel("Votre commentaire (facultatif)").fill("Accueil chaleureux, coupe réussie.");
    await page.getByRole("button", { name: "Publier mon avis" }).click();
    await eventually(() => page.getByText("Merci ! Votre avis est publié.").count()).toBe(1);
    await expectAccessible(page);

    await admin.reload();
    await eventually(() => admin.getByRole("list", { name: "Demandes d'avis envoyées" }).textContent()).toContain(
      "Claire",
    );
    await eventually(() => admin.getByRole("list", { name: "Avis reçus" }).textContent()).toContain(
      "Accueil chaleureux",
    );
    await expectAccessible(admin);
    await snap(admin, "reviews-owner", { fullPage: true });
  });
});
