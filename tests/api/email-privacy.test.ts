import { describe, expect, it } from "vitest";
import type { NewsletterContent } from "../../src/domain/messages/newsletter-blocks.ts";
import { type MailKind, mailTemplates } from "../../src/server/modules/mail/templates.ts";
import { compileNewsletter, messageAsContent, personalize } from "../../src/server/modules/messages/channels/email-render.ts";

/**
 * Issue 25 row 8: opening an e-mail must make no request to anyone but Fidèle itself (APP_URL). Every template is
 * rendered and its HTML parsed for what a mail client fetches on opening: <link>, @import, url(…), and src /
 * background / any href outside <a> pointing elsewhere. Links the reader clicks (<a href>) may go anywhere.
 */

const APP_URL = "https://fidele.test";

/** Everything in `html` a mail client would load by itself from a host other than APP_URL. */
function thirdPartyLoads(html: string): string[] {
  const found: string[] = [];
  const elsewhere = (url: string) => {
    const u = url.trim().replace(/^['"]|['"]$/g, "");
    if (u === "" || u.startsWith("#") || u.startsWith("data:") || u.startsWith("cid:")) return false;
    try {
      return new URL(u).origin !== new URL(APP_URL).origin;
    } catch {
      return true; // relative or odd: the client would resolve it against nothing we control
    }
  };
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) found.push(m[0]);
  for (const m of html.matchAll(/@import[^;]*;?/gi)) found.push(m[0]);
  for (const m of html.matchAll(/url\(([^)]*)\)/gi)) if (elsewhere(m[1]!)) found.push(m[0]);
  for (const tag of html.matchAll(/<([a-z][\w:-]*)\b[^>]*>/gi)) {
    const name = tag[1]!.toLowerCase();
    for (const attr of tag[0].matchAll(
      /\s(src|srcset|background|poster|data|href)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi,
    )) {
      if (attr[1]!.toLowerCase() === "href" && name === "a") continue; // a link the reader chooses to follow
      if (elsewhere(attr[2]!)) found.push(`<${name} ${attr[1]}=${attr[2]}>`);
    }
  }
  return found;
}

const samples: { [K in MailKind]: Parameters<(typeof mailTemplates)[K]>[0] } = {
  confirmation: { url: `${APP_URL}/verify?token=t` },
  reset: { url: `${APP_URL}/reset?token=t` },
  "sign-in-code": { code: "123456" },
  invitation: { url: `${APP_URL}/invitation/abc`, shopName: "Boulangerie Léa", inviterName: "Léa" },
  "existing-account": { url: `${APP_URL}/mot-de-passe-oublie` },
  "contest-win": {
    url: `${APP_URL}/mes-lots`,
    shopName: "Boulangerie Léa",
    contestTitle: "Grand jeu",
    lotName: "Un panier",
    claimBy: "12 décembre",
    code: "ABCD1234",
  },
  "inactive-account": { url: `${APP_URL}/login`, purgeOn: "12 décembre 2026" },
  "erase-code": { code: "654321", minutes: 10 },
  "prepaid-gift": {
    url: `${APP_URL}/recuperer?code=ABCDEFGHJKMN`,
    shopName: "Boulangerie Léa",
    title: "Carte cadeau 30 €",
    amount: "30,00 €",
    expiresOn: "26 novembre 2027",
    code: "ABCD-EFGH-JKMN",
  },
};

const fill = {
  prenom: "Inès",
  points: "30",
  prochaine_recompense: "Croissant offert (encore 20 points)",
  balance: 30,
  unsubscribeUrl: `${APP_URL}/api/email/unsubscribe/abc.def`,
};

describe("issue 25 row 8: no e-mail makes a third-party request when opened", () => {
  it("the checker itself catches a Google Fonts link, an @import, a foreign url() and a foreign <img>", () => {
    expect(
      thirdPartyLoads(
        `<link href="https://fonts.googleapis.com/css?family=Roboto" rel="stylesheet"><style>@import url(https://fonts.googleapis.com/x);</style><div style="background:url('https://t.example/p.gif')"></div><img src="https://t.example/p.gif"><a href="https://exemple.fr">ok</a><img src="${APP_URL}/logo.png">`,
      ),
    ).toHaveLength(6); // the link (tag and href), the @import, its url(), the background url(), the img; the <a> and our logo pass
  });

  it("every transactional template (mail/templates.ts) loads nothing from elsewhere", () => {
    for (const kind of Object.keys(samples) as MailKind[]) {
      const render = mailTemplates[kind] as (p: unknown) => { html: string };
      const { html } = render(samples[kind]);
      expect(html.length, kind).toBeGreaterThan(200);
      expect(thirdPartyLoads(html), kind).toEqual([]);
    }
  });

  it("a newsletter with every block, and a message's e-mail copy, load nothing from elsewhere (MJML adds no font link)", async () => {
    const rewards = [{ id: "r1", title: "Croissant offert", cost: 50, description: "Au beurre" }];
    const ctx = { shopName: "Boulangerie Léa", shopSlug: "lea", mode: "points" as const, appUrl: APP_URL, rewards };
    const content: NewsletterContent = {
      subject: "Bonjour {{prenom}}",
      preheader: "Vos {{points}} points vous attendent",
      blocks: [
        { type: "title", text: "Salut {{prenom}} !" },
        { type: "text", text: "Des nouvelles de la boutique." },
        { type: "image", url: `${APP_URL}/api/shops/lea/images/cover.webp`, alt: "La vitrine" },
        { type: "image", url: "https://images.exemple.fr/pain.jpg", alt: "Du pain" },
        { type: "button", label: "Notre site", url: "https://boulangerie-lea.fr/promo" },
        { type: "button", label: "Voir la boutique", url: "/shop/lea" },
        { type: "reward", rewardId: "r1" },
        { type: "points" },
      ],
    };
    const compiled = await compileNewsletter(content, ctx);
    const copy = personalize(compiled, fill, { mode: "points" });
    expect(copy.html).not.toContain("fonts.googleapis.com");
    expect(thirdPartyLoads(copy.html)).toEqual([]);
    // Our own image is shown; the one hosted elsewhere is a link the reader may follow, in the HTML and the text.
    expect(copy.html).toContain(`src="${APP_URL}/api/shops/lea/images/cover.webp"`);
    expect(copy.html).toContain('<a href="https://images.exemple.fr/pain.jpg"');
    expect(copy.html).toContain("Voir l&#39;image : Du pain");
    expect(copy.text).toContain("Voir l'image : Du pain : https://images.exemple.fr/pain.jpg");
    // The reader's clicks may go to the shop's own site.
    expect(copy.html).toContain('href="https://boulangerie-lea.fr/promo"');

    const message = messageAsContent(
      {
        title: "Fermé lundi",
        body: "À mardi !",
        image_url: "https://cdn.exemple.fr/x.png",
        link_url: "https://boulangerie-lea.fr",
      },
      APP_URL,
    );
    const messageCopy = personalize(await compileNewsletter(message, ctx), fill, { mode: "points" });
    expect(thirdPartyLoads(messageCopy.html)).toEqual([]);
  });
});
