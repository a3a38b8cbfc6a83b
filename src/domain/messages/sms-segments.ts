/**
 * How many SMS a text costs (3GPP TS 23.038 and 23.040), pure and shared by the
 * server (budget, driver) and the pages (live count while typing).
 *
 * GSM-7: the default alphabet, 7 bits a character; 160 characters in one SMS, 153 per
 * part once split (the user-data header takes 7). The characters of the extension
 * table (€ [ ] { } \ ~ ^ | and form feed) take two (an escape, then the character),
 * and an escape pair is never cut between two parts.
 * UCS-2: as soon as one character is outside GSM-7 (ê â î ô û ë ï œ, an emoji…),
 * the whole text is sent in UTF-16: 70 units in one SMS, 67 per part; a character
 * outside the BMP (most emoji) takes two units, never cut between two parts.
 * French letters that ARE in GSM-7: é è à ù ì ò É Ç ç (and ä ö ü ñ Ä Ö Ü Ñ Å å Æ æ ø Ø ß).
 */
type SmsEncoding = "GSM-7" | "UCS-2";

type SegmentCount = {
  encoding: SmsEncoding;
  /** SMS billed by the operator. 0 for an empty text. */
  segments: number;
  /** Length in the encoding's units (septets for GSM-7, UTF-16 units for UCS-2). */
  units: number;
  /** Units in one SMS when the text fits in one (160/70), else per part (153/67). */
  perSegment: number;
  /** Units still free in the last part before one more SMS is needed. */
  remaining: number;
  /** The distinct characters that force UCS-2 (empty in GSM-7). */
  nonGsm: string[];
};

const GSM7_SINGLE = 160;
const GSM7_PART = 153;
const UCS2_SINGLE = 70;
const UCS2_PART = 67;

/** GSM 03.38 basic character set (one septet each). */
const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
/** GSM 03.38 extension table (escape + character: two septets each). */
const GSM7_EXTENDED = "\f^{}\\[~]|€";

const basic = new Set(Array.from(GSM7_BASIC));
const extended = new Set(Array.from(GSM7_EXTENDED));

/** Whether one character (a code point) is in GSM-7, and its septets. */
function gsmSeptets(char: string): 0 | 1 | 2 {
  if (basic.has(char)) return 1;
  if (extended.has(char)) return 2;
  return 0;
}

/** Splits a sequence of character widths into parts of at most `size` units, never cutting a character. */
function countParts(widths: number[], size: number): { parts: number; lastUsed: number } {
  let parts = 1;
  let used = 0;
  for (const w of widths) {
    if (used + w > size) {
      parts++;
      used = 0;
    }
    used += w;
  }
  return { parts, lastUsed: used };
}

export function countSegments(text: string): SegmentCount {
  const chars = Array.from(text);
  const nonGsm: string[] = [];
  const septets: number[] = [];
  for (const c of chars) {
    const s = gsmSeptets(c);
    if (s === 0) {
      if (!nonGsm.includes(c)) nonGsm.push(c);
    } else septets.push(s);
  }
  const gsm = nonGsm.length === 0;
  const widths = gsm ? septets : chars.map((c) => c.length);
  const units = widths.reduce((a, b) => a + b, 0);
  const single = gsm ? GSM7_SINGLE : UCS2_SINGLE;
  const part = gsm ? GSM7_PART : UCS2_PART;
  const encoding: SmsEncoding = gsm ? "GSM-7" : "UCS-2";
  if (units === 0) return { encoding, segments: 0, units, perSegment: single, remaining: single, nonGsm };
  if (units <= single) return { encoding, segments: 1, units, perSegment: single, remaining: single - units, nonGsm };
  const { parts, lastUsed } = countParts(widths, part);
  return { encoding, segments: parts, units, perSegment: part, remaining: part - lastUsed, nonGsm };
}

/** French, for the pages: "2 SMS · GSM-7 (153 caractères par SMS)". */
export function describeEncodingFr(count: SegmentCount): string {
  return count.encoding === "GSM-7"
    ? "Alphabet GSM-7 : 160 caractères pour un SMS, 153 par SMS au-delà."
    : "Unicode (UCS-2) : 70 caractères pour un SMS, 67 par SMS au-delà.";
}
