import { hmacBase64url, importCodeKey, safeEqual } from "./scan-code.ts";

/**
 * Receipt codes (issue 29, docs/decisions/0053-receipt-codes.md): a single-use code for an amount, signed by the
 * till itself, offline, with the shop's receipt key, and printed on the receipt (as a QR code of `receiptUrl`).
 *
 *   R1.{scanUid}.{receiptId}.{amountCents}.{issuedAt}.{mac}
 *   mac = base64url(first 16 bytes of HMAC-SHA256(receipt key, "fidele-receipt-v1:{scanUid}:{receiptId}:{amountCents}:{issuedAt}"))
 *
 * amountCents and issuedAt (Unix seconds) in base 10; receiptId is the till's own ticket number or any unique
 * string of [A-Za-z0-9_-]{1,40}. scripts/receipt-code.mjs is the reference any till vendor can copy; its codes
 * are checked here (tests/api/till-receipts.test.ts runs it).
 * Web Crypto only: the domain stays free of node: imports.
 */
const RECEIPT_VERSION = "R1";
const MAC_BYTES = 16;
/** A till's clock may run ahead of ours by this much. */
const RECEIPT_CLOCK_SKEW_SECONDS = 300;

type ReceiptCode = {
  scanUid: string;
  receiptId: string;
  amountCents: number;
  issuedAt: number;
  mac: string;
};

const PATTERN = /^R1\.([A-Za-z0-9_-]{8,40})\.([A-Za-z0-9_-]{1,40})\.(\d{1,7})\.(\d{9,11})\.([A-Za-z0-9_-]{22})$/;

/** The parts of a well-formed code, or null. */
export function parseReceiptCode(code: string): ReceiptCode | null {
  const m = PATTERN.exec(code.trim());
  if (!m) return null;
  const amountCents = Number(m[3]);
  const issuedAt = Number(m[4]);
  if (amountCents < 1) return null;
  return { scanUid: m[1]!, receiptId: m[2]!, amountCents, issuedAt, mac: m[5]! };
}

function receiptMessage(c: Omit<ReceiptCode, "mac">): string {
  return `fidele-receipt-v1:${c.scanUid}:${c.receiptId}:${c.amountCents}:${c.issuedAt}`;
}

/** A shop's receipt secret as its signing key: the same HMAC-SHA-256 as the scan codes'. */
export const importReceiptKey = importCodeKey;

const receiptMac = (key: CryptoKey, c: Omit<ReceiptCode, "mac">) => hmacBase64url(key, receiptMessage(c), MAC_BYTES);

/** A code as a till makes it (the server makes none; tests and the back office's example do). */
export async function signReceiptCode(key: CryptoKey, c: Omit<ReceiptCode, "mac">): Promise<string> {
  return `${RECEIPT_VERSION}.${c.scanUid}.${c.receiptId}.${c.amountCents}.${c.issuedAt}.${await receiptMac(key, c)}`;
}

type ReceiptCheck = "valid" | "expired" | "invalid";

/** invalid: forged, or dated ahead of our clock; expired: authentic but older than the shop's window. */
export async function verifyReceiptCode(
  key: CryptoKey,
  c: ReceiptCode,
  windowMinutes: number,
  nowMs: number,
): Promise<ReceiptCheck> {
  if (!safeEqual(await receiptMac(key, c), c.mac)) return "invalid";
  const now = Math.floor(nowMs / 1000);
  if (c.issuedAt > now + RECEIPT_CLOCK_SKEW_SECONDS) return "invalid";
  return now - c.issuedAt > windowMinutes * 60 ? "expired" : "valid";
}

/** What the QR code on the receipt opens: the app's receipt page (/ticket), the code in its query. */
export const receiptUrl = (appUrl: string, code: string) =>
  `${appUrl.replace(/\/$/, "")}/ticket?c=${encodeURIComponent(code)}`;
