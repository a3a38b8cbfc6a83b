import { formatEuros, formatLocalDate, formatNumber, pluralWord } from "../format.ts";
import { REDEMPTION_CODE_ALPHABET } from "./rewards.ts";
import { localParts } from "./time.ts";

/**
 * Prepaid products sold at a shop's own till (issue 28 item 3, ADR 0049): a bundle counted in units (« carnet de
 * 10 coupes ») or a gift card counted in euro cents (« carte cadeau 30 € »). What a person holds is a holding whose
 * balance is a cache of its own append-only ledger (`prepaid_entries`), separate from points.
 */
export const PREPAID_KINDS = ["units", "euros"] as const;
export type PrepaidKind = (typeof PREPAID_KINDS)[number];

/**
 * Ledger entry kinds: a sale credits, a use debits, an import credits once when its invitation is claimed, a cancel
 * gives a use back (a wrong amount typed at the till) or takes a sale back (nothing used yet: the till refunds it).
 */
export const PREPAID_ENTRY_KINDS = ["sale", "use", "import", "cancel"] as const;

export const PAYMENT_METHODS = ["cash", "card", "check", "other"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS_FR: Record<PaymentMethod, string> = {
  cash: "Espèces",
  card: "Carte bancaire",
  check: "Chèque",
  other: "Autre",
};

/** How long a product stays valid, in months, as the owner sets it (ADR 0049: free, but always stated). */
export const PREPAID_VALIDITY_MONTHS = { min: 1, max: 60, default: 12 } as const;
/** One bundle at most this many units; one gift card at most this many cents (1 500 €, well under any threshold). */
export const PREPAID_UNITS_MAX = 100;
export const PREPAID_CENTS_MAX = 150_000;

/**
 * A use typed wrong at the till is given back, a sale not yet used taken back, by a cancel: by whoever typed it within
 * this many minutes (the customer is still there), by the owner or a manager at any time; never on one's own bundle or
 * gift card (ADR 0049).
 */
export const PREPAID_CANCEL_MINUTES = 10;

/** The code a holding shows at the counter (QR: prefix + code): the redemption codes' alphabet, one more length. */
export const PREPAID_QR_PREFIX = "FIDELE-P:";
export const PREPAID_CODE_LENGTH = 7;
/** A claim code (a gift sent by e-mail, an imported balance): long enough that guessing is hopeless (31^12). */
export const CLAIM_CODE_LENGTH = 12;

function parseCode(input: string, prefix: string, length: number): string | null {
  let raw = input.trim();
  if (raw.toUpperCase().startsWith(prefix)) raw = raw.slice(prefix.length);
  const code = raw.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== length) return null;
  for (const ch of code) if (!REDEMPTION_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

export const parsePrepaidCode = (input: string) => parseCode(input, PREPAID_QR_PREFIX, PREPAID_CODE_LENGTH);
export const parseClaimCode = (input: string) => parseCode(input, "", CLAIM_CODE_LENGTH);

/** A claim code shown in groups of four, easier to read aloud and to copy from paper. */
export const formatClaimCode = (code: string) => code.replace(/(.{4})(?=.)/g, "$1-");

/** « 3 unités », « 24,50 € ». */
export function prepaidAmountLabel(kind: PrepaidKind, amount: number): string {
  return kind === "euros"
    ? formatEuros(amount / 100)
    : `${formatNumber(amount)} ${pluralWord(amount, "unité", "unités")}`;
}

type PrepaidEntryKind = (typeof PREPAID_ENTRY_KINDS)[number];

const PREPAID_ENTRY_LABELS_FR: Record<PrepaidEntryKind, string> = {
  sale: "Achat",
  use: "Utilisé au comptoir",
  import: "Solde repris de l'ancienne carte",
  cancel: "Débit annulé",
};

/** A ledger entry in words, as the holder and the counter read a holding's history (a cancel takes a sale back when negative). */
export function prepaidEntryLabelFr(kind: PrepaidEntryKind, delta: number): string {
  return kind === "cancel" && delta < 0 ? "Vente annulée" : PREPAID_ENTRY_LABELS_FR[kind];
}

/** A movement with its sign: « +10 unités », « −12,50 € » (a true minus sign). */
export function prepaidDeltaLabel(kind: PrepaidKind, delta: number): string {
  return `${delta < 0 ? "−" : "+"}${prepaidAmountLabel(kind, Math.abs(delta))}`;
}

/**
 * The last day a holding can be used, in French (« 26 novembre 2027 »). `expiresAt` is the first instant it cannot:
 * midnight in the shop's time zone after that day (fidele_prepaid_sell), so the card reads « valable jusqu'au … inclus ».
 */
export function prepaidLastDay(expiresAt: Date | string, tz: string): string {
  return formatLocalDate(localParts(new Date(new Date(expiresAt).getTime() - 1), tz).date);
}

const PREPAID_REFUSALS = [
  "unknown",
  "expired",
  "insufficient",
  "own",
  "suspended",
  "unclaimed",
  "already_claimed",
  "already_cancelled",
  "not_yours",
  "too_late",
  "already_used",
] as const;
export type PrepaidRefusal = (typeof PREPAID_REFUSALS)[number];

/** The French sentence of each refusal (the SQL returns the code: ADR 0016). */
export function prepaidRefusalFr(
  refusal: PrepaidRefusal,
  ctx: { kind?: PrepaidKind; balance?: number; expiresOn?: string } = {},
): string {
  switch (refusal) {
    case "unknown":
      return "Aucun carnet ni carte cadeau avec ce code dans votre boutique.";
    case "expired":
      return `Ce carnet ou cette carte cadeau a expiré${ctx.expiresOn ? ` le ${ctx.expiresOn}` : ""} : il n'est plus utilisable.`;
    case "insufficient":
      return ctx.kind && ctx.balance !== undefined
        ? `Solde insuffisant : il reste ${prepaidAmountLabel(ctx.kind, ctx.balance)}.`
        : "Solde insuffisant.";
    case "own":
      return "Vous ne pouvez pas vendre, débiter ni annuler un débit pour vous-même : un collègue doit s'en charger.";
    case "suspended":
      return "La boutique est suspendue : les ventes et les débits sont arrêtés.";
    case "unclaimed":
      return "Cette carte cadeau n'a pas encore été récupérée par son bénéficiaire.";
    case "already_claimed":
      return "Ce code a déjà été utilisé.";
    case "already_cancelled":
      return "Cette opération a déjà été annulée.";
    case "not_yours":
      return "Seuls la personne qui a saisi cette opération, le propriétaire et les gérants de la boutique peuvent l'annuler.";
    case "too_late":
      return `Cette opération a plus de ${PREPAID_CANCEL_MINUTES} minutes : seuls le propriétaire et les gérants de la boutique peuvent encore l'annuler.`;
    case "already_used":
      return "Ce carnet ou cette carte cadeau a déjà servi : annulez d'abord ses débits, puis la vente.";
  }
}
