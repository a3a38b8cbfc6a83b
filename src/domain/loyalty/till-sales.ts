import { parsePersonalCode, PERSONAL_QR_PREFIX } from "./personal-code.ts";

/**
 * What a till's sale says to the loyalty (issue 29 item 5, ADR 0051), whatever the vendor: the customer's code the
 * cashier typed into the sale, and how many points a refund takes back.
 */

/** A code written as shown in the app (« ABCD-EF23 ») or as its QR reads (« FIDELE-C:ABCDEF23 »), inside text. */
const MARKED_CODE = new RegExp(`(?:${PERSONAL_QR_PREFIX}[A-Za-z0-9]{8}|\\b[A-Za-z0-9]{4}-[A-Za-z0-9]{4}\\b)`, "gi");

/**
 * The first personal code in a sale's item comments, or null: written as the app shows it (« ABCD-EF23 ») or read
 * from its QR (« FIDELE-C:ABCDEF23 ») anywhere in a comment, or a comment that is nothing but a code (« abcd ef23 »,
 * « ABCDEF23 »). A bare word inside a longer comment is not taken: « Baguette » has the shape of a code.
 */
export function customerCodeIn(comments: readonly (string | null | undefined)[]): string | null {
  for (const comment of comments) {
    if (!comment) continue;
    for (const match of comment.matchAll(MARKED_CODE)) {
      const code = parsePersonalCode(match[0]);
      if (code) return code;
    }
    const whole = parsePersonalCode(comment);
    if (whole) return whole;
  }
  return null;
}

/**
 * Points a refund takes back: the sale's points in the share of its amount refunded (rounded half up), never more
 * than what earlier refunds of the same sale left, never more than the card holds (points already spent stay
 * spent: the shop gave the reward).
 */
export function refundTakesBack(input: {
  salePoints: number;
  saleAmountCents: number;
  refundAmountCents: number;
  alreadyTakenBack: number;
  balance: number;
}): number {
  const { salePoints, saleAmountCents, refundAmountCents, alreadyTakenBack, balance } = input;
  if (salePoints <= 0 || saleAmountCents <= 0) return 0;
  const share = Math.min(1, Math.abs(refundAmountCents) / saleAmountCents);
  const due = Math.min(Math.round(salePoints * share), salePoints - alreadyTakenBack);
  return Math.max(0, Math.min(due, balance));
}
