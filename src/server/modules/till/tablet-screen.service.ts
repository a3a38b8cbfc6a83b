import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { plural, shortPersonName } from "../../../domain/format.ts";
import { amountRuleFr, pointsForAmount } from "../../../domain/loyalty/amount.ts";
import { importReceiptKey, receiptUrl, signReceiptCode } from "../../../domain/loyalty/receipt-code.ts";
import { randomSecret } from "../../../domain/loyalty/scan-code.ts";
import { TABLET_MAX_AMOUNT_CENTS, type tabletAmountSchema } from "../../../domain/schemas/till.ts";
import type { Db } from "../../db/client.ts";
import { counterTablets, shops } from "../../db/schema/index.ts";
import { consumeThrottle, refundThrottle } from "../../lib/throttle.ts";
import { codeShopWhere, counterFace } from "../cards/counter.service.ts";
import { forgetScanProfile, shopEarningColumns } from "../cards/scan.service.ts";
import { pinMatches, type TabletCaller, tabletScope, tabletUnpaired } from "./tablets.service.ts";

/**
 * What a paired counter tablet shows and does (ADR 0054): the shop's face and how it earns, the last credited
 * visits, and amount codes, which are receipt codes (ADR 0053) the server signs with the shop's receipt key for
 * the amount staff enter behind the PIN. Everything is scoped by `tabletScope`: the tablet's own shop, while it
 * is not revoked.
 */

/**
 * Wrong PINs a tablet may send before amount entry locks: 5 in 10 minutes, and 20 in a day (a 4-digit PIN then
 * takes 250 days on average to find by trying, and a day's tries are plain in the owner's eyes).
 */
const PIN_MISSES = [
  { suffix: "", windowSeconds: 600, max: 5 },
  { suffix: ":day", windowSeconds: 86_400, max: 20 },
];

const lockedFor = (seconds: number) =>
  seconds >= 7200
    ? plural(Math.ceil(seconds / 3600), "heure", "heures")
    : plural(Math.ceil(seconds / 60), "minute", "minutes");
/** How long an amount code lives (its on-screen life): the shop's receipt window when shorter. */
const AMOUNT_CODE_SECONDS = 300;
/** The last visits the tablet lists, from the last week. */
const LAST_VISITS = 8;

/** The screen: the tablet's name, the shop as /reader shows it, and whether staff may enter an amount. */
export async function getTabletScreen(db: Db, caller: TabletCaller) {
  const shop = await codeShopWhere(db, tabletScope(caller));
  const byAmount = shop.cardMode === "points" && shop.earnBy === "amount";
  return {
    tablet: { name: caller.name },
    shop: { ...counterFace(shop), mode: shop.cardMode },
    amount: byAmount
      ? { rule: amountRuleFr(shop.pointsPerEuro, shop.amountRounding), maxCents: TABLET_MAX_AMOUNT_CENTS }
      : null,
  };
}

/** The last credited visits of the tablet's shop, newest first: first name and initial only (a shared screen). */
export async function listLastVisits(db: Db, caller: TabletCaller) {
  const result = await db.execute<{
    id: string;
    created_at: Date | string;
    delta: number;
    amount_cents: number | null;
    first_name: string | null;
    last_name: string | null;
  }>(sql`
    select s.id, s.created_at, s.delta, s.amount_cents, p.first_name, p.last_name
    from scans s left join profiles p on p.id = s.user_id
    where s.shop_id = ${tabletScope(caller)} and s.outcome = 'accepted'
      and s.created_at > now() - interval '7 days'
    order by s.created_at desc, s.id desc
    limit ${LAST_VISITS}`);
  return result.rows.map((r) => ({
    id: r.id,
    name: shortPersonName({ firstName: r.first_name, lastName: r.last_name }),
    delta: r.delta,
    amountCents: r.amount_cents,
    at: new Date(r.created_at).toISOString(),
  }));
}

async function checkPin(db: Db, caller: TabletCaller, pin: string) {
  const keys = PIN_MISSES.map((m) => ({ ...m, key: `tablet-pin:${caller.tabletId}${m.suffix}` }));
  const checks = await Promise.all(keys.map((k) => consumeThrottle(db, k.key, k.windowSeconds, k.max)));
  const waits = checks.flatMap((c, i) => (c.allowed ? [] : [c.retryAfter ?? keys[i]!.windowSeconds]));
  if (waits.length > 0) {
    throw new AppError("RATE_LIMITED", {
      message: "tablet PIN throttled",
      userMessage: `Trop de codes PIN erronés : la saisie d'un montant est bloquée ${lockedFor(Math.max(...waits))}.`,
    });
  }
  const [tablet] = await db
    .select({ pinHash: counterTablets.pinHash })
    .from(counterTablets)
    .where(sql`${counterTablets.id} = ${caller.tabletId} and ${counterTablets.revokedAt} is null`);
  if (!tablet) throw tabletUnpaired();
  if (!(await pinMatches(pin, tablet.pinHash))) {
    throw new AppError("FORBIDDEN", {
      message: "wrong tablet PIN",
      userMessage: "Code PIN incorrect.",
      fields: { pin: "Code PIN incorrect." },
    });
  }
  // Only misses count: a busy counter never locks itself.
  for (const k of keys) await refundThrottle(db, k.key);
}

/**
 * An amount code: a receipt code for `amountCents`, signed now with the shop's receipt key (made here if the shop
 * has none yet), which the shopper scans with their phone (/ticket) and fidele_scan spends once. Its issue time is
 * set so that the shop's receipt window ends when the code leaves the screen: a photo of it is worth nothing later.
 */
export async function createAmountCode(
  db: Db,
  caller: TabletCaller,
  input: z.output<typeof tabletAmountSchema>,
  appUrl: string,
  nowMs = Date.now(),
) {
  await checkPin(db, caller, input.pin);
  const [shop] = await db
    .select({
      scanUid: shops.scanUid,
      status: shops.status,
      ...shopEarningColumns,
    })
    .from(shops)
    .where(eq(shops.id, tabletScope(caller)));
  if (!shop) throw tabletUnpaired();
  if (shop.status === "suspended") {
    throw new AppError("CONFLICT", {
      message: "suspended shop",
      userMessage: "Boutique suspendue : aucun point n'est crédité pour l'instant.",
    });
  }
  if (shop.cardMode !== "points" || shop.earnBy !== "amount") {
    throw new AppError("CONFLICT", {
      message: "shop earns by visit",
      userMessage:
        "La carte de la boutique donne ses points par passage, pas selon le montant : les clients scannent le code du comptoir.",
    });
  }
  const points = pointsForAmount(input.amountCents, shop.pointsPerEuro, shop.amountRounding);
  if (points < 1) {
    throw new AppError("VALIDATION", {
      message: "amount worth no point",
      userMessage: "Ce montant ne suffit pas pour gagner un point.",
      fields: { amountCents: "Ce montant ne suffit pas pour gagner un point." },
    });
  }
  let secret = shop.receiptSecret;
  if (!secret) {
    // The first amount code of a shop without a till: its receipt key is made now, once (coalesce: two tablets
    // asking together keep the same key). The owner may renew it on /admin/caisse like any receipt key.
    const [row] = await db
      .update(shops)
      .set({ receiptSecret: sql`coalesce(${shops.receiptSecret}, ${randomSecret(32)})` })
      .where(eq(shops.id, tabletScope(caller)))
      .returning({ receiptSecret: shops.receiptSecret });
    secret = row?.receiptSecret ?? null;
    if (!secret) throw tabletUnpaired();
    forgetScanProfile(db, shop.scanUid);
  }
  const lifetime = Math.min(AMOUNT_CODE_SECONDS, shop.receiptWindowMinutes * 60);
  const now = Math.floor(nowMs / 1000);
  const receiptId = `TAB-${randomBytes(12).toString("base64url")}`;
  const code = await signReceiptCode(await importReceiptKey(secret), {
    scanUid: shop.scanUid,
    receiptId,
    amountCents: input.amountCents,
    issuedAt: now - (shop.receiptWindowMinutes * 60 - lifetime),
  });
  // Kept for the owner: the day's codes beside the till's takings, and those never scanned.
  await db.execute(sql`
    insert into tablet_amount_codes (receipt_id, shop_id, tablet_id, amount_cents, points)
    select ${receiptId}, ${tabletScope(caller)}, ${caller.tabletId}, ${input.amountCents}, ${points}`);
  return {
    receiptId,
    code,
    url: receiptUrl(appUrl, code),
    amountCents: input.amountCents,
    points,
    expiresAt: new Date((now + lifetime) * 1000).toISOString(),
  };
}

/** Whether an amount code of this tablet's shop was claimed, and by whom (first name and initial). */
export async function getAmountCodeStatus(db: Db, caller: TabletCaller, receiptId: string) {
  const result = await db.execute<{ delta: number; first_name: string | null; last_name: string | null }>(sql`
    select s.delta, p.first_name, p.last_name
    from receipt_claims rc join scans s on s.id = rc.scan_id left join profiles p on p.id = rc.user_id
    where rc.shop_id = ${tabletScope(caller)} and rc.receipt_id = ${receiptId}`);
  const row = result.rows[0];
  return row
    ? {
        claimed: true as const,
        customer: shortPersonName({ firstName: row.first_name, lastName: row.last_name }),
        delta: row.delta,
      }
    : { claimed: false as const, customer: null, delta: null };
}
