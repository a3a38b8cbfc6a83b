import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { plural } from "../../../domain/format.ts";
import {
  importReceiptKey,
  parseReceiptCode,
  receiptUrl,
  signReceiptCode,
} from "../../../domain/loyalty/receipt-code.ts";
import { randomSecret } from "../../../domain/loyalty/scan-code.ts";
import type { receiptRequestSchema } from "../../../domain/schemas/cards.ts";
import type { Database, Db } from "../../db/client.ts";
import { type ShopAccess, updateScopedShop } from "../../lib/shop-access.ts";
import { consumeThrottles, refundThrottles } from "../../lib/throttle.ts";
import { forgetScanProfile, performScan } from "./scan.service.ts";

/**
 * Receipt codes (issue 29, docs/decisions/0053-receipt-codes.md): the till signs a code for an amount with the
 * shop's receipt key, offline; the shopper scans it within the shop's window; fidele_scan spends it once.
 */

/** Forged or unknown codes a person (and an address) may send per window: the figures are in ADR 0053. */
const RECEIPT_MISSES = { windowSeconds: 600, max: 20 };

/** /ticket: a shopper claims a receipt code. A refusal is an answer (200 with its outcome), like a scan. */
export async function claimReceipt(
  database: Database,
  userId: string,
  input: z.output<typeof receiptRequestSchema>,
  clientIp: string,
) {
  const db = database.db;
  const keys = [`receipt:user:${userId}`, `receipt:ip:${clientIp}`];
  const blocked = await consumeThrottles(db, keys, RECEIPT_MISSES.windowSeconds, RECEIPT_MISSES.max);
  if (!blocked.allowed) {
    const minutes = Math.ceil((blocked.retryAfter ?? RECEIPT_MISSES.windowSeconds) / 60);
    throw new AppError("RATE_LIMITED", {
      message: "receipt claims throttled",
      userMessage: `Trop de codes de ticket non valables. Réessayez dans ${plural(minutes, "minute", "minutes")}.`,
    });
  }
  const parsed = parseReceiptCode(input.code);
  if (!parsed) {
    throw new AppError("VALIDATION", {
      message: "malformed receipt code",
      userMessage: "Ce code de ticket n'est pas valable : scannez le QR code imprimé sur votre ticket.",
      fields: { code: "Code de ticket non valable." },
    });
  }
  const result = await performScan(
    database,
    { userId, actorId: userId },
    {
      scanUid: parsed.scanUid,
      token: null,
      poster: null,
      deviceId: input.deviceId,
      idempotencyKey: input.idempotencyKey,
      receipt: input.code,
    },
    "receipt",
  );
  // Only forged or unknown codes count: a shopper with a pile of genuine receipts never runs out.
  if (result.answer.outcome !== "invalid_code" && result.answer.outcome !== "unknown_shop")
    await refundThrottles(db, keys);
  return result;
}

/**
 * The owner gives the till a new receipt key (shown once; the previous one stops signing valid codes at once),
 * with the shop's id in codes and an example code for 12,50 € to check the till's own implementation against.
 */
export async function renewReceiptKey(db: Db, access: ShopAccess, appUrl: string, nowMs = Date.now()) {
  const secret = randomSecret(32);
  const { scanUid, receiptWindowMinutes } = await updateScopedShop(db, access, { receiptSecret: secret });
  forgetScanProfile(db, scanUid);
  const example = await signReceiptCode(await importReceiptKey(secret), {
    scanUid,
    receiptId: "EXEMPLE-1",
    amountCents: 1250,
    issuedAt: Math.floor(nowMs / 1000),
  });
  return {
    receiptKey: secret,
    shopCode: scanUid,
    windowMinutes: receiptWindowMinutes,
    example: { code: example, url: receiptUrl(appUrl, example), amountCents: 1250, receiptId: "EXEMPLE-1" },
  };
}
