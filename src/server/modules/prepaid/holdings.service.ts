import { and, desc, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import {
  PREPAID_QR_PREFIX,
  type PrepaidKind,
  type PrepaidRefusal,
  prepaidAmountLabel,
  prepaidDeltaLabel,
  prepaidEntryLabelFr,
  prepaidLastDay,
  prepaidRefusalFr,
} from "../../../domain/loyalty/prepaid.ts";
import type { Database, Db } from "../../db/client.ts";
import { prepaidEntries, prepaidHoldings, shops } from "../../db/schema/index.ts";
import { callJson } from "../../lib/db-call.ts";
import { consumeThrottle } from "../../lib/throttle.ts";

/** The shopper's side of prepaid (ADR 0049): what they hold, and a claim code turned into a balance. */

/** What a holding shows wherever it is listed (the shopper's wallet, the counter), with its shop's time zone. */
export const holdingColumns = {
  id: prepaidHoldings.id,
  kind: prepaidHoldings.kind,
  title: prepaidHoldings.title,
  code: prepaidHoldings.code,
  balance: prepaidHoldings.balance,
  expiresAt: prepaidHoldings.expiresAt,
  tz: shops.timezone,
};

/** A holding's history shows this many movements, the latest first. */
const HISTORY_SIZE = 5;

/**
 * The last movements of these holdings, by holding, in words (« Utilisé au comptoir », « −3 unités ») with their
 * instant: what the holder and the counter read when a balance surprises them.
 */
export async function holdingHistories(db: Db, holdings: { id: string; kind: PrepaidKind }[]) {
  const out = new Map<string, { kind: string; label: string; amountLabel: string; at: string }[]>();
  if (holdings.length === 0) return out;
  const kinds = new Map(holdings.map((h) => [h.id, h.kind]));
  // The last few of each holding, ranked in the database (a 100-unit bundle has a hundred uses).
  const ranked = db
    .select({
      id: prepaidEntries.id,
      holdingId: prepaidEntries.holdingId,
      kind: prepaidEntries.kind,
      delta: prepaidEntries.delta,
      at: prepaidEntries.createdAt,
      rank: sql<number>`row_number() over (partition by ${prepaidEntries.holdingId} order by ${prepaidEntries.id} desc)`.as(
        "rank",
      ),
    })
    .from(prepaidEntries)
    .where(inArray(prepaidEntries.holdingId, [...kinds.keys()]))
    .as("ranked");
  const rows = await db.select().from(ranked).where(lte(ranked.rank, HISTORY_SIZE)).orderBy(desc(ranked.id));
  for (const r of rows) {
    const list = out.get(r.holdingId) ?? [];
    list.push({
      kind: r.kind,
      label: prepaidEntryLabelFr(r.kind, r.delta),
      amountLabel: prepaidDeltaLabel(kinds.get(r.holdingId) ?? "units", r.delta),
      at: r.at.toISOString(),
    });
    out.set(r.holdingId, list);
  }
  return out;
}

export async function listMyPrepaid(db: Db, userId: string, shopSlug?: string) {
  const rows = await db
    .select({
      ...holdingColumns,
      shopSlug: shops.slug,
      shopName: shops.name,
    })
    .from(prepaidHoldings)
    .innerJoin(shops, eq(shops.id, prepaidHoldings.shopId))
    .where(
      and(
        eq(prepaidHoldings.userId, userId),
        isNotNull(prepaidHoldings.claimedAt),
        // A sale taken back at the till (the wrong product, refunded) is not the person's.
        sql`not exists (select 1 from ${prepaidEntries} c
          where c.holding_id = ${prepaidHoldings.id} and c.kind = 'cancel' and c.delta < 0)`,
        shopSlug === undefined ? undefined : eq(shops.slug, shopSlug),
      ),
    )
    .orderBy(desc(prepaidHoldings.expiresAt), desc(prepaidHoldings.id));
  const now = Date.now();
  const histories = await holdingHistories(db, rows);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    title: r.title,
    code: r.code,
    qr: `${PREPAID_QR_PREFIX}${r.code}`,
    balance: r.balance,
    balanceLabel: prepaidAmountLabel(r.kind, r.balance),
    expiresAt: r.expiresAt.toISOString(),
    lastDay: prepaidLastDay(r.expiresAt, r.tz),
    isExpired: r.expiresAt.getTime() <= now,
    shop: { slug: r.shopSlug, name: r.shopName },
    history: histories.get(r.id) ?? [],
  }));
}

/** Wrong claim codes one person may type per window: 31^12 codes stay out of reach. */
const CLAIM_MISSES = { windowSeconds: 600, max: 10 };

const CLAIM_SQL = "select fidele_claim($1, $2) as r";
type ClaimAnswer =
  | { outcome: "claimed"; shopId: string; holdingId: string | null; points: number }
  | { outcome: PrepaidRefusal };

export async function claimCode(database: Database, userId: string, code: string) {
  const answer = await callJson<ClaimAnswer>(database, "fidele_claim", CLAIM_SQL, [code, userId]);
  if (answer.outcome !== "claimed") {
    if (answer.outcome === "unknown") {
      const check = await consumeThrottle(
        database.db,
        `claim:user:${userId}`,
        CLAIM_MISSES.windowSeconds,
        CLAIM_MISSES.max,
      );
      if (!check.allowed)
        throw new AppError("RATE_LIMITED", {
          userMessage: "Trop de codes inconnus saisis. Réessayez dans 10 minutes.",
        });
      throw new AppError("NOT_FOUND", { userMessage: "Code inconnu : vérifiez-le (12 lettres et chiffres)." });
    }
    throw new AppError(answer.outcome === "own" ? "FORBIDDEN" : "CONFLICT", {
      message: `claim refused: ${answer.outcome}`,
      userMessage:
        answer.outcome === "own"
          ? "Vous ne pouvez pas récupérer un solde que vous avez vous-même vendu ou importé."
          : prepaidRefusalFr(answer.outcome),
    });
  }
  const [shop] = await database.db
    .select({ slug: shops.slug, name: shops.name })
    .from(shops)
    .where(eq(shops.id, answer.shopId))
    .limit(1);
  const holdings = answer.holdingId
    ? (await listMyPrepaid(database.db, userId)).filter((h) => h.id === answer.holdingId)
    : [];
  return { shop: shop ?? null, points: answer.points, holding: holdings[0] ?? null };
}
