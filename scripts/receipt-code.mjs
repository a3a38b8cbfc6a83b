#!/usr/bin/env node
/**
 * Reference implementation of Fidèle receipt codes (docs/decisions/0053-receipt-codes.md), for till vendors:
 * copy the function `receiptCode` into the till (any language with HMAC-SHA256 will do); it needs no network.
 *
 *   node scripts/receipt-code.mjs --key <receipt key> --shop <shop code> --receipt <ticket no.> --amount 12.50 \
 *     [--at <unix seconds>] [--url https://fidele.example.org]
 *
 * Prints the code, then the address to print as a QR code on the receipt (with --url). The shop's owner gets the
 * receipt key and the shop code in Fidèle (Réglages › Caisse › « Clé des tickets »).
 * Standalone on purpose (node:crypto only): tests/api/till-receipts.test.ts checks its codes against the server.
 */
import { createHmac } from "node:crypto";

/**
 * R1.{shop}.{receipt}.{amountCents}.{issuedAt}.{mac}, mac = base64url of the first 16 bytes of
 * HMAC-SHA256(base64url-decoded key, "fidele-receipt-v1:{shop}:{receipt}:{amountCents}:{issuedAt}").
 */
export function receiptCode({ key, shop, receipt, amountCents, issuedAt }) {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(receipt)) throw new Error("receipt: 1 to 40 of A-Z a-z 0-9 _ -");
  if (!Number.isInteger(amountCents) || amountCents < 1 || amountCents > 9_999_999)
    throw new Error("amount: cents, 1 to 9999999");
  const message = `fidele-receipt-v1:${shop}:${receipt}:${amountCents}:${issuedAt}`;
  const mac = createHmac("sha256", Buffer.from(key, "base64url"))
    .update(message)
    .digest()
    .subarray(0, 16)
    .toString("base64url");
  return `R1.${shop}.${receipt}.${amountCents}.${issuedAt}.${mac}`;
}

function args(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i]?.startsWith("--") || argv[i + 1] === undefined) throw new Error(`unexpected: ${argv[i]}`);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const a = args(process.argv.slice(2));
    if (!a.key || !a.shop || !a.receipt || !a.amount)
      throw new Error("--key, --shop, --receipt and --amount are required");
    // Euros with a dot or a comma, to the cent, without a float: "12,5" → 1250.
    const m = /^(\d+)(?:[.,](\d{1,2}))?$/.exec(a.amount);
    if (!m) throw new Error("--amount: euros, e.g. 12.50");
    const amountCents = Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
    const issuedAt = a.at ? Number(a.at) : Math.floor(Date.now() / 1000);
    const code = receiptCode({ key: a.key, shop: a.shop, receipt: a.receipt, amountCents, issuedAt });
    console.log(code);
    if (a.url) console.log(`${a.url.replace(/\/$/, "")}/ticket?c=${encodeURIComponent(code)}`);
  } catch (error) {
    console.error(`receipt-code: ${error.message}`);
    process.exit(2);
  }
}
