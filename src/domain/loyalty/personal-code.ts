import { REDEMPTION_CODE_ALPHABET } from "./rewards.ts";

/**
 * A shopper's personal code (« Ma carte client »): shown as a QR code and as 8 characters to type, so staff can
 * credit a visit without anyone's e-mail address. The alphabet of the redemption codes (no 0/O, 1/I/L): 31^8 ≈
 * 8.5 × 10^11 codes, drawn at random by the server, stored, renewable by the shopper; the counter's lookup is
 * throttled (see the backoffice credit route), so guessing one is out of reach.
 */
export const PERSONAL_CODE_ALPHABET = REDEMPTION_CODE_ALPHABET;
const PERSONAL_CODE_LENGTH = 8;

/** What the QR code holds: prefixed so a stray QR (or a reward's) is not mistaken for it. */
export const PERSONAL_QR_PREFIX = "FIDELE-C:";

/** A fresh random code (rejection sampling: every character equally likely). */
export function generatePersonalCode(
  random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
): string {
  const n = PERSONAL_CODE_ALPHABET.length;
  const limit = 256 - (256 % n);
  let code = "";
  while (code.length < PERSONAL_CODE_LENGTH) {
    for (const byte of random(16)) {
      if (byte >= limit) continue;
      code += PERSONAL_CODE_ALPHABET[byte % n];
      if (code.length === PERSONAL_CODE_LENGTH) break;
    }
  }
  return code;
}

/** The code typed by staff (spaces, dashes and case ignored) or read from the QR code; null when it cannot be one. */
export function parsePersonalCode(input: string): string | null {
  let raw = input.trim();
  if (raw.toUpperCase().startsWith(PERSONAL_QR_PREFIX)) raw = raw.slice(PERSONAL_QR_PREFIX.length);
  const code = raw.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== PERSONAL_CODE_LENGTH) return null;
  for (const ch of code) if (!PERSONAL_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** "ABCD-EFGH": easier to read out and type. */
export function formatPersonalCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
