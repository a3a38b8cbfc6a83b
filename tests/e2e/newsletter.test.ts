import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, expectAccessible, heading, type Stack, startStack } from "../setup/e2e.ts";
import { LONG_TEST, SLOW_WORK } from "../setup/timing.ts";

/**
 * Issue 15 in the browser at 390×844: the owner writes a newsletter in /admin/newsletter (preview at a phone's
 * and a computer's width, axe clean), sends it to 1,000 customers who accepted e-mail; the real local SMTP server
 * receives exactly those 1,000, at the operator's rate (EMAIL_RATE_PER_SECOND), while the progress bar moves;
 * the customers who did not accept receive nothing. A mail client's one-click unsubscribe (a form POST with no
 * Origin and no cookie) takes the address out of the next campaign; the unsubscribe page is French and axe clean.
 */
const RATE = 40;
const CUSTOMERS = 1000;
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ env: { EMAIL_RATE_PER_SECOND: String(RATE) } });
});
afterAll(async () => {
  await stack?.close();
});

const t0 = Date.now();
const step = (what: string) => console.info(`newsletter e2e +${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);

/** `n` customers of the shop, in one statement each; `consent` false: they never accepted e-mail. */
async function customers(shopId: string, n: number, consent: boolean) {
  const tag = `${consent ? "oui" : "non"}-${randomUUID().slice(0, 8)}`;
  const db = stack.deps.db;
  const rows = await db.execute<{ id: string; email: string }>(sql`
    insert into "user" (id, name, email, email_verified)
    select gen_random_uuid()::text, 'Client ' || i, ${tag} || '-' || i || '@test.fidele.local', true
    from generate_series(1, ${n}) i returning id, email`);
  await db.execute(sql`
    insert into profiles (id, first_name) select id, 'Client' from "user" where email like ${`${tag}-%`}`);
  await db.execute(
    sql`insert into cards (shop_id, user_id) select ${shopId}, id from "user" where email like ${`${tag}-%`}`,
  );
  if (consent) {
    await db.execute(sql`
      insert into consents (user_id, channel, granted, wording) select id, 'email', true, 'E-mails' from "user" where email like ${`${tag}-%`}`);
  }
  return rows.rows.map((r) => r.email);
}

describe("newsletter", () => {
  it(
    "1,000 consenting customers receive it over SMTP at the set rate while the bar moves; the others nothing; one-click unsubscribe",
    async () => {
      const owner = await stack.createUser({ firstName: "Odile" });
      const shop = await stack.createShop(owner.id, { name: `Fournil ${randomUUID().slice(0, 5)}` });
      const yes = await customers(shop.id, CUSTOMERS, true);
      const no = await customers(shop.id, 25, false);

      step("customers made");
      const context = await stack.newContext();
      await stack.signIn(context, owner.email, owner.password);
      const page = await context.newPage();
      await page.goto("/admin/newsletter");
      await eventually(() => heading(page)).toBe("Newsletter");
      expect(await page.getByText("En préparation").count()).toBe(0);
      await eventually(() => page.getByTestId("newsletter-audience").textContent()).toBe(
        "1\u202f000 clients recevront cet e-mail.",
      );

      const subject = `Le pain de la semaine ${randomUUID().slice(0, 4)}`;
      await page.getByLabel("Objet").fill(subject);
      await page.getByLabel("Texte d'aperçu (facultatif)").fill("Des nouvelles du fournil");
      await page.getByLabel("Titre").fill("Bonjour {{prenom}}");
      await page.getByLabel("Texte", { exact: true }).fill("Vous avez {{points}} points chez nous.");
      await page.getByLabel("Nouveau bloc").selectOption("points");
      await page.getByRole("button", { name: "Ajouter le bloc" }).click();
      expect(await page.getByTestId("newsletter-block").count()).toBe(3);

      step("editor filled");
      // The preview is the server's rendering, in a frame at a phone's width, then a computer's.
      await eventually(() => page.getByTestId("preview-subject").textContent()).toBe(subject);
      await eventually(() => page.frameLocator("iframe[title^='Aperçu de l']").getByText("Bonjour Odile").count()).toBe(
        1,
      );
      // Sandboxed: an opaque origin, so the e-mail's HTML cannot reach the back-office page (its session, its DOM).
      expect(
        await page.locator("iframe[title^='Aperçu de l']").evaluate((f) => (f as HTMLIFrameElement).contentDocument),
      ).toBeNull();
      const phoneWidth = await page
        .locator("iframe[data-width='phone']")
        .evaluate((f) => f.getBoundingClientRect().width, undefined);
      expect(phoneWidth).toBeLessThanOrEqual(375);
      await page.getByRole("button", { name: "Ordinateur" }).click();
      const desktopWidth = await page
        .locator("iframe[data-width='desktop']")
        .evaluate((f) => f.getBoundingClientRect().width, undefined);
      expect(desktopWidth).toBe(700);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await eventually(() => page.getByText("Aucun suivi d'ouverture ni de clic").count()).toBe(1);
      await expectAccessible(page);

      step("preview checked");
      // A test to oneself first.
      await page.getByRole("button", { name: "M'envoyer un test" }).click();
      await stack.smtp.waitForMail(owner.email, (m) => m.subject === `[Test] ${subject}`);

      step("sending");
      await page.getByRole("button", { name: "Envoyer la newsletter" }).click();
      await eventually(() => page.getByText(`« ${subject} » est en cours d'envoi.`).count()).toBe(1);

      // The bar moves: the values it shows while sending, read as the owner sees them (the list re-reads every 2 s).
      const bar = page.getByRole("progressbar", { name: `Progression de l'envoi de « ${subject} »` });
      const seen: number[] = [];
      const item = page.getByTestId("newsletter-campaign").filter({ hasText: subject });
      // 1,000 e-mails through SMTP take 25 s at this rate on a quiet machine, minutes beside other suites.
      const deadline = Date.now() + SLOW_WORK;
      let checkedAxe = false;
      while (Date.now() < deadline) {
        if ((await item.getByText("Envoyé", { exact: true }).count()) === 1) break;
        const value = await bar.getAttribute("aria-valuenow", { timeout: 1000 }).catch(() => null);
        if (value !== null && Number(value) !== seen.at(-1)) seen.push(Number(value));
        if (!checkedAxe && seen.length >= 2) {
          await expectAccessible(page); // mid-send, with the bar and the pause button
          checkedAxe = true;
        }
        await page.waitForTimeout(300);
      }
      step("bar seen");
      await eventually(() => item.getByText("Envoyé", { exact: true }).count(), { timeout: SLOW_WORK }).toBe(1);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen); // only forward
      expect(seen.some((v) => v > 0 && v < 100)).toBe(true);
      await eventually(() => item.locator("dt:has-text('Envoyés') + dd").textContent()).toBe("1\u202f000");

      // Exactly the 1,000 who accepted, once each; nobody who did not accept.
      const got = stack.smtp.mails.filter((m) => m.subject === subject);
      const recipients = got.flatMap((m) => m.to);
      expect(new Set(recipients).size).toBe(CUSTOMERS);
      expect(recipients.length).toBe(CUSTOMERS);
      expect(recipients.sort()).toEqual([...yes].sort());
      for (const address of no) expect(recipients).not.toContain(address);

      // At the operator's rate, judged where the pace is kept: each e-mail is claimed (the database's clock) once its
      // window has opened, a second's worth at a time, so the k-th claim comes no sooner than (k - RATE) / RATE s after
      // the first window opened (a second more is allowed for the first claim to come after its window opened). A busy
      // machine only makes claims later, and the SMTP arrivals later still and bunched: the pace is held claim by claim,
      // not timed at the other end.
      const claimed = (
        await stack.deps.db.execute<{ at: number }>(sql`
        select extract(epoch from d.claimed_at)::float8 * 1000 as at from message_deliveries d
        join messages m on m.id = d.message_id
        where m.subject = ${subject} and d.channel = 'email' and d.status = 'delivered' order by d.claimed_at`)
      ).rows.map((r) => Number(r.at));
      expect(claimed).toHaveLength(CUSTOMERS);
      const early = claimed.filter((at, k) => at - claimed[0]! < ((k - 2 * RATE) * 1000) / RATE);
      const span = (claimed.at(-1)! - claimed[0]!) / 1000;
      console.info(
        `newsletter: ${CUSTOMERS} e-mails claimed over ${span.toFixed(1)} s at EMAIL_RATE_PER_SECOND=${RATE}; bar values ${seen.join(", ")}`,
      );
      expect(early).toEqual([]);
      expect(span).toBeGreaterThanOrEqual(CUSTOMERS / RATE - 2);

      step("mail checked");
      // A mail client's one-click unsubscribe: POST, form-encoded, no Origin, no cookie.
      const mail = got.find((m) => m.to[0] === yes[0])!;
      const listUnsubscribe = /^List-Unsubscribe: <([^>]+)>/im.exec(mail.raw.replace(/\r\n[ \t]+/g, " "))?.[1];
      expect(listUnsubscribe).toMatch(new RegExp(`^${stack.baseUrl}/api/email/unsubscribe/`));
      expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/im);
      const post = await fetch(listUnsubscribe!, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(post.status).toBe(200);
      // The next campaign leaves that address out (the count is the audience frozen at sending).
      const count = await page.request.post(`${stack.baseUrl}/api/backoffice/shops/${shop.id}/newsletters/audience`, {
        data: { segment: { kind: "all" } },
        headers: { origin: stack.baseUrl },
      });
      expect(await count.json()).toEqual({ email: CUSTOMERS - 1 });
      await page.reload();
      await eventually(() => item.locator("dt:has-text('Désabonnements') + dd").textContent()).toBe("1");

      // The page the e-mail's link opens, signed out: French, the choice done, axe clean.
      const reader = await stack.newContext();
      const view = await reader.newPage();
      await view.goto(`${listUnsubscribe}?fait=1`);
      await eventually(() => view.getByRole("heading", { level: 1 }).textContent()).toBe("Mes e-mails");
      expect(await view.getByText(`C'est fait : vous ne recevrez plus d'e-mails de ${shop.name}.`).count()).toBe(1);
      await expectAccessible(view);
      await reader.close();
      await context.close();
    },
    LONG_TEST,
  );
});
