import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, heading, type Stack, startStack, unique } from "../setup/e2e.ts";
import { htmlOf } from "../setup/smtp.ts";
import { LONG_TEST } from "../setup/timing.ts";

/**
 * Issue 25 row 8 in the browser at 390×844: a newsletter opened by its reader loads nothing from anyone but the shop's
 * own Fidèle (MJML's Google Fonts stylesheet told Google who reads, at every open). The owner's test e-mail, as it
 * arrives over SMTP, is opened in Chromium and every request it makes is recorded; so is the editor's preview. (Every
 * template's HTML is parsed for outside addresses in tests/api/email-privacy.test.ts.)
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** Every URL `page` asks for from now on, frames included (data: and about: left out: nothing leaves the phone). */
function recordRequests(page: Page) {
  const urls: string[] = [];
  page.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("data:") && !url.startsWith("about:")) urls.push(url);
  });
  return urls;
}

describe("issue 25 row 8: e-mails make no third-party request", () => {
  it(
    "issue 25 row 8: the newsletter, opened by its reader and in the owner's preview, asks nothing of a third party; a shopper cannot open the editor",
    async () => {
      const owner = await stack.createUser({ firstName: "Odile" });
      await stack.createShop(owner.id, { name: `Fournil ${unique()}` });
      const context = await stack.signedIn(owner);
      const page = await context.newPage();
      const editorRequests = recordRequests(page);
      await page.goto("/admin/newsletter");
      await eventually(() => heading(page)).toBe("Newsletter");
      const subject = `Le pain de la semaine ${unique(4)}`;
      await page.getByLabel("Objet").fill(subject);
      await page.getByLabel("Titre").fill("Bonjour {{prenom}}");
      await page.getByLabel("Texte", { exact: true }).fill("Vous avez {{points}} points chez nous.");
      await eventually(() => page.frameLocator("iframe[title^='Aperçu de l']").getByText("Bonjour Odile").count()).toBe(
        1,
      );
      await page.getByRole("button", { name: "M'envoyer un test" }).click();
      const mail = await stack.smtp.waitForMail(owner.email, (m) => m.subject === `[Test] ${subject}`);
      expect(editorRequests.filter((url) => !url.startsWith(stack.baseUrl))).toEqual([]);

      // The e-mail as its reader's mail app shows it: a page of its own, every request it makes recorded.
      const reader = await stack.newContext();
      const inbox = await reader.newPage();
      const opened = recordRequests(inbox);
      await inbox.setContent(htmlOf(mail), { waitUntil: "load" });
      expect(await inbox.getByText("Bonjour Odile").count()).toBe(1);
      expect(opened.filter((url) => !url.startsWith(stack.baseUrl))).toEqual([]);
      expect(htmlOf(mail)).not.toMatch(/fonts\.googleapis|fonts\.gstatic/);
      await reader.close();

      // A shopper has no newsletter editor to open.
      const shopper = await stack.createUser();
      const shopperContext = await stack.signedIn(shopper);
      const other = await shopperContext.newPage();
      await other.goto("/admin/newsletter");
      await eventually(() => heading(other)).toBe("Accès refusé");
      await shopperContext.close();
      await context.close();
    },
    LONG_TEST,
  );
});
