import type mjml2html from "mjml";
import {
  applyMergeFields,
  type Block,
  type MergeValues,
  type NewsletterContent,
  type RewardForMerge,
} from "../../../../domain/messages/newsletter-blocks.ts";
import { type CardMode, formatAmount } from "../../../../domain/format.ts";
import { encodeUrlBraces } from "../../../../domain/schemas/links.ts";

/**
 * Newsletters to e-mail: blocks → MJML → responsive HTML (compiled once per campaign,
 * `compileNewsletter`), and plain text; then each recipient's copy is the compiled
 * template with the merge fields filled (`personalize`), HTML-escaped. MJML does the
 * tables and the mobile layout; nothing here writes a table by hand.
 */

type RewardForEmail = RewardForMerge & { id: string; description: string | null };

export type NewsletterContext = {
  shopName: string;
  shopSlug: string;
  mode: CardMode;
  /** The shop's active rewards, cheapest first (reward blocks and {{prochaine_recompense}}). */
  rewards: RewardForEmail[];
  appUrl: string;
};

export type CompiledNewsletter = { subject: string; preheader: string; html: string; text: string };

/** Per-recipient values the engine fills besides the merge fields (not writable by the shop: {{__…}} is refused). */
type RecipientFill = MergeValues & { unsubscribeUrl: string; balance: number };

/**
 * MJML and what it pulls in (juice, cheerio, undici, js-beautify…: some 1,200 module loads, 0.4 s) load on
 * the first newsletter rendered, not at every server start (issue 11: later starts in 3 s).
 */
let mjmlModule: Promise<typeof mjml2html> | undefined;
const loadMjml = () => (mjmlModule ??= import("mjml").then((m) => m.default));

const BRAND = "#0f766e";
const INK = "#1c1917";
const MUTED = "#57534e";

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** Escaped text with its line breaks kept. Merge fields ({{…}}) pass through escaping untouched. */
const paragraphHtml = (s: string) => escapeHtml(s).replace(/\r?\n/g, "<br>");

const absolute = (url: string, appUrl: string) => (url.startsWith("/") ? `${appUrl.replace(/\/$/, "")}${url}` : url);

/**
 * An address as the template holds it: its braces percent-encoded, so the fill never sees a merge field in it. The
 * schemas refuse {{…}} in addresses; this keeps anything that got past them from naming its readers to a tracker
 * (issue 22, row 12).
 */
const templateUrl = (url: string, appUrl: string) => encodeUrlBraces(absolute(url, appUrl));

/** Whether `url` is on the app's own origin (APP_URL): the only host an e-mail may load anything from. */
function isAppUrl(url: string, appUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(appUrl).origin;
  } catch {
    return false;
  }
}

const imageLinkFr = (alt: string) => (alt ? `Voir l'image : ${alt}` : "Voir l'image");

function blockMjml(block: Block, ctx: NewsletterContext): string {
  switch (block.type) {
    case "title":
      return `<mj-text font-size="24px" font-weight="700" line-height="1.25" color="${INK}">${paragraphHtml(block.text)}</mj-text>`;
    case "text":
      return `<mj-text font-size="16px" line-height="1.55" color="${INK}">${paragraphHtml(block.text)}</mj-text>`;
    case "image": {
      const url = templateUrl(block.url, ctx.appUrl);
      // An image hosted elsewhere would be fetched by the reader's mail client on opening, telling that host the
      // reader's address (issue 25 row 8): it becomes a link the reader may follow, nothing loads by itself.
      if (!isAppUrl(url, ctx.appUrl))
        return `<mj-text font-size="15px" color="${INK}"><a href="${escapeHtml(url)}" style="color:${BRAND}">${escapeHtml(imageLinkFr(block.alt))}</a></mj-text>`;
      return `<mj-image src="${escapeHtml(url)}" alt="${escapeHtml(block.alt)}" border-radius="12px" padding="8px 25px" />`;
    }
    case "button":
      return `<mj-button href="${escapeHtml(templateUrl(block.url, ctx.appUrl))}" background-color="${BRAND}" color="#ffffff" font-size="16px" font-weight="600" border-radius="10px" inner-padding="14px 24px">${escapeHtml(block.label)}</mj-button>`;
    case "reward": {
      const reward = ctx.rewards.find((r) => r.id === block.rewardId);
      if (!reward) return "";
      return `<mj-text font-size="13px" font-weight="700" color="${BRAND}" text-transform="uppercase" letter-spacing="1px" padding-bottom="0">À gagner chez ${escapeHtml(ctx.shopName)}</mj-text>
<mj-text font-size="20px" font-weight="700" color="${INK}" padding-bottom="0">${escapeHtml(reward.title)}</mj-text>
${reward.description ? `<mj-text font-size="15px" line-height="1.5" color="${MUTED}" padding-bottom="0">${paragraphHtml(reward.description)}</mj-text>` : ""}
<mj-text font-size="15px" color="${INK}">Pour ${escapeHtml(formatAmount(ctx.mode, reward.cost))}.</mj-text>`;
    }
    case "points":
      return `<mj-text font-size="13px" font-weight="700" color="${BRAND}" text-transform="uppercase" letter-spacing="1px" padding-bottom="0">Votre carte ${escapeHtml(ctx.shopName)}</mj-text>
<mj-text font-size="28px" font-weight="700" color="${INK}" padding-bottom="0">{{__solde}}</mj-text>
<mj-text font-size="15px" color="${MUTED}">{{__prochaine}}</mj-text>`;
  }
}

function blockText(block: Block, ctx: NewsletterContext): string {
  switch (block.type) {
    case "title":
      return `## ${block.text}`; // not upper-cased: that would break its merge fields
    case "text":
      return block.text;
    case "image": {
      const url = templateUrl(block.url, ctx.appUrl);
      if (!isAppUrl(url, ctx.appUrl)) return `${imageLinkFr(block.alt)} : ${url}`;
      return block.alt ? `[Image : ${block.alt}]` : "";
    }
    case "button":
      return `${block.label} : ${templateUrl(block.url, ctx.appUrl)}`;
    case "reward": {
      const reward = ctx.rewards.find((r) => r.id === block.rewardId);
      if (!reward) return "";
      return [
        `À gagner chez ${ctx.shopName} : ${reward.title}`,
        reward.description ?? "",
        `Pour ${formatAmount(ctx.mode, reward.cost)}.`,
      ]
        .filter(Boolean)
        .join("\n");
    }
    case "points":
      return `Votre carte ${ctx.shopName} : {{__solde}}\n{{__prochaine}}`;
  }
}

const FOOTER_FR = (shop: string) =>
  `Vous recevez cet e-mail parce que vous avez accepté les e-mails de ${shop} sur Fidèle.`;

/** The campaign's HTML and text with merge fields still in place: compiled once, then filled per recipient. */
export async function compileNewsletter(
  content: NewsletterContent,
  ctx: NewsletterContext,
): Promise<CompiledNewsletter> {
  const body = content.blocks.map((b) => blockMjml(b, ctx)).join("\n");
  const source = `<mjml lang="fr">
<mj-head>
  <mj-title>${escapeHtml(content.subject)}</mj-title>
  ${content.preheader ? `<mj-preview>${escapeHtml(content.preheader)}</mj-preview>` : ""}
  <mj-attributes>
    <mj-all font-family="-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" />
  </mj-attributes>
</mj-head>
<mj-body background-color="#f5f5f4" width="600px">
  <mj-section padding="24px 0 8px">
    <mj-column><mj-text font-size="18px" font-weight="700" color="${BRAND}">${escapeHtml(ctx.shopName)}</mj-text></mj-column>
  </mj-section>
  <mj-section background-color="#ffffff" border-radius="16px" padding="16px 0">
    <mj-column>
${body}
    </mj-column>
  </mj-section>
  <mj-section padding="16px 0 32px">
    <mj-column>
      <mj-text font-size="12px" line-height="1.5" color="${MUTED}" align="center">${escapeHtml(FOOTER_FR(ctx.shopName))}<br><a href="{{__unsubscribe}}" style="color:${MUTED}">Se désabonner</a> · <a href="{{__unsubscribe}}" style="color:${MUTED}">Gérer mes préférences</a></mj-text>
    </mj-column>
  </mj-section>
</mj-body>
</mjml>`;
  const mjml = await loadMjml();
  // fonts: {}: MJML would otherwise add a Google Fonts stylesheet for the Roboto of the font stack, fetched at every
  // opening, telling Google who reads (issue 25 row 8). The stack falls back to the reader's system fonts.
  const result = await mjml(source, { validationLevel: "soft", minify: false, keepComments: false, fonts: {} });
  const text = [
    ctx.shopName,
    "",
    ...content.blocks
      .map((b) => blockText(b, ctx))
      .filter(Boolean)
      .flatMap((t) => [t, ""]),
    "—",
    FOOTER_FR(ctx.shopName),
    "Se désabonner ou gérer vos préférences : {{__unsubscribe}}",
  ].join("\n");
  return { subject: content.subject, preheader: content.preheader, html: result.html, text };
}

/**
 * One recipient's copy: merge fields and the engine's own fields filled in one pass (escaped in the HTML), so
 * nothing a recipient's values bring in is filled again.
 */
export function personalize(compiled: CompiledNewsletter, fill: RecipientFill, ctx: Pick<NewsletterContext, "mode">) {
  const values: Record<string, string> = {
    prenom: fill.prenom,
    points: fill.points,
    prochaine_recompense: fill.prochaine_recompense,
    __solde: formatAmount(ctx.mode, fill.balance),
    __prochaine: fill.prochaine_recompense ? `Prochaine récompense : ${fill.prochaine_recompense}` : "",
    __unsubscribe: fill.unsubscribeUrl,
  } satisfies MergeValues & Record<`__${string}`, string>;
  return {
    subject: applyMergeFields(compiled.subject, values).replace(/[\r\n]+/g, " "),
    html: applyMergeFields(compiled.html, values, escapeHtml),
    text: applyMergeFields(compiled.text, values),
  };
}

/** A composer message (title, text, image, link) as newsletter content, for its e-mail copy. */
export function messageAsContent(
  message: { title: string; body: string; image_url: string | null; link_url: string | null },
  appUrl: string,
): NewsletterContent {
  const blocks: Block[] = [
    { type: "title", text: message.title },
    { type: "text", text: message.body },
  ];
  const image = message.image_url ? absolute(message.image_url, appUrl) : null;
  if (image?.startsWith("https://")) blocks.push({ type: "image", url: image, alt: "" });
  if (message.link_url) blocks.push({ type: "button", label: "En savoir plus", url: message.link_url });
  return { subject: message.title, preheader: message.body.slice(0, 120), blocks };
}
