import { fromBase64url } from "./scan-code.ts";

/**
 * The counter's typed fallback (issue 12): under its QR code, /reader shows a short code that rotates with it,
 * for a shopper whose camera fails. It is derived from the rotating token itself (its first 40 bits of HMAC), so
 * it changes every 30 s with it and needs no secret to compute from a token; the server finds the shop by
 * computing it for every active shop's current and previous token (src/server/modules/cards/short-code.service.ts).
 *
 * Six characters from an alphabet without look-alikes (no 0/O, 1/I/L): 31^6 ≈ 887 million codes, so two shops
 * share one in a given 30 s window about once in 900 000 windows per pair of shops; the server then asks for the
 * next code rather than guess.
 */
export const SHORT_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const SHORT_CODE_LENGTH = 6;

/** The short code of a rotating token `{step}.{mac}`, or null when the token is malformed. */
export function shortCodeOf(token: string): string | null {
  const match = /^[0-9a-z]{1,12}\.([A-Za-z0-9_-]{16})$/.exec(token);
  if (!match) return null;
  const bytes = fromBase64url(match[1]!);
  // 40 bits: exact in a double, and far more than the 30 the code keeps.
  let n = 0;
  for (let i = 0; i < 5; i++) n = n * 256 + bytes[i]!;
  let code = "";
  for (let i = 0; i < SHORT_CODE_LENGTH; i++) {
    code += SHORT_CODE_ALPHABET[n % SHORT_CODE_ALPHABET.length];
    n = Math.floor(n / SHORT_CODE_ALPHABET.length);
  }
  return code;
}

/** What someone typed, as a code: case, spaces and dashes ignored. Null when it cannot be a short code. */
export function normaliseShortCode(text: string): string | null {
  const code = text.toUpperCase().replace(/[\s\-.·]/g, "");
  if (code.length !== SHORT_CODE_LENGTH) return null;
  for (const ch of code) if (!SHORT_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** "K7M4PX" shown as "K7M 4PX": two groups of three are easier to read across a counter and to type. */
export const displayShortCode = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;
