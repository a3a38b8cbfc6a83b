import { z } from "zod";

/**
 * Review requests within the rules (issue 28 item 2, ADR 0048). After a credited visit (the first, or every Nth, as
 * the owner sets), a customer may be asked once to review the shop, on Google (the shop's place link) or in Fidèle's
 * own reviews (/review). The rules, each from a text the shop must follow:
 * - never in exchange for anything: Google's policy forbids « offering or accepting money, products, or services to
 *   write a review » (support.google.com/contributionpolicy/answer/7400114), and in France an incentivised review
 *   must say so (Code de la consommation L111-7-2, décret 2017-1436): the texts below offer nothing, and the owner
 *   cannot edit them (tests/unit read every one for incentive words);
 * - never only to the happy ones: « review gating » (asking whether they are satisfied first, and sending only those
 *   who are to the review) is forbidden by Google; no question comes before the request, everyone whose visit
 *   matches is asked the same way;
 * - at most once per REVIEW_REQUEST_GAP_DAYS per person and shop, through the messages engine with the person's
 *   consent (ADR 0023, 0035), never sent from the scan itself.
 */
export const REVIEW_REQUEST_GAP_DAYS = 90;
/** A visit older than this is not a reason to write (the job ran late, or the owner just turned it on). */
export const REVIEW_RECENT_VISIT_DAYS = 3;

export const REVIEW_TARGETS = ["google", "fidele"] as const;
export type ReviewTarget = (typeof REVIEW_TARGETS)[number];

export const REVIEW_TARGET_LABELS_FR: Record<ReviewTarget, string> = {
  google: "Sur Google (votre fiche d'établissement)",
  fidele: "Dans les avis Fidèle de votre page",
};

/** The texts sent, one per target; the shop's name is put in. Nothing in them may promise anything. */
export const REVIEW_REQUEST_TEMPLATES: Record<ReviewTarget, { title: string; body: string }> = {
  google: {
    title: "Votre avis sur {shop}",
    body: "Merci de votre visite chez {shop}. Si vous le souhaitez, vous pouvez partager votre avis sur Google, qu'il soit positif ou négatif : il aide d'autres personnes à nous connaître.",
  },
  fidele: {
    title: "Votre avis sur {shop}",
    body: "Merci de votre visite chez {shop}. Si vous le souhaitez, vous pouvez partager votre avis sur notre page, qu'il soit positif ou négatif : il aide d'autres personnes à nous connaître.",
  },
};

export function reviewRequestText(target: ReviewTarget, shopName: string): { title: string; body: string } {
  const t = REVIEW_REQUEST_TEMPLATES[target];
  return { title: t.title.replaceAll("{shop}", shopName), body: t.body.replaceAll("{shop}", shopName) };
}

/** A Google place link the owner pastes (g.page, maps.app.goo.gl, google.com/maps, search.google.com review links). */
const GOOGLE_HOSTS = /^(?:[a-z0-9-]+\.)*(?:google\.[a-z.]+|g\.page|goo\.gl)$/i;

export const reviewSettingsSchema = z
  .object({
    enabled: z.boolean(),
    target: z.enum(REVIEW_TARGETS, { error: "Choisissez où l'avis est demandé." }),
    googleUrl: z
      .string()
      .trim()
      .max(500, "Lien trop long.")
      .nullish()
      .transform((v) => v || null)
      .refine((v) => {
        if (v === null) return true;
        try {
          const url = new URL(v);
          return url.protocol === "https:" && GOOGLE_HOSTS.test(url.hostname);
        } catch {
          return false;
        }
      }, "Collez le lien de votre fiche Google (il commence par https:// et vient de Google)."),
    /** 1: after the first credited visit only; N ≥ 2: after every Nth credited visit. */
    everyVisits: z.coerce
      .number({ error: "Indiquez un nombre de passages." })
      .int("Indiquez un nombre entier.")
      .min(1, "Au moins 1.")
      .max(100, "Au plus 100."),
    push: z.boolean().default(true),
    email: z.boolean().default(false),
  })
  .strict()
  .refine((s) => !(s.enabled && s.target === "google" && !s.googleUrl), {
    message: "Collez le lien de votre fiche Google pour y demander des avis.",
    path: ["googleUrl"],
  });
export type ReviewSettings = z.output<typeof reviewSettingsSchema>;

/** Whether the nth credited visit is one that asks (the first, or every Nth). Pure: the job's SQL is the same test. */
export const isAskingVisit = (visits: number, everyVisits: number) =>
  everyVisits <= 1 ? visits === 1 : visits > 0 && visits % everyVisits === 0;
