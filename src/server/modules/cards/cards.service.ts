import { and, desc, eq, lt, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { cardProgress, LEDGER_KIND_LABELS_FR, LIFETIME_KINDS, type LedgerKind } from "../../../domain/loyalty/ledger.ts";
import { checkVisit } from "../../../domain/loyalty/scan-rules.ts";
import type { Db } from "../../db/client.ts";
import { cards, ledgerEntries, shops } from "../../db/schema/index.ts";
import { rewardsGlance } from "../rewards/rewards.service.ts";
import { designOf, imageUrl } from "../../lib/shop-dto.ts";

const cardColumns = {
  id: cards.id,
  balance: cards.balance,
  lifetime: cards.lifetime,
  visits: cards.visits,
  lastScanAt: cards.lastScanAt,
  dayKey: cards.dayKey,
  dayCount: cards.dayCount,
  createdAt: cards.createdAt,
  shopId: shops.id,
  shopSlug: shops.slug,
  shopName: shops.name,
  shopCity: shops.city,
  shopStatus: shops.status,
  cardMode: shops.cardMode,
  stampsGoal: shops.stampsGoal,
  pointsPerVisit: shops.pointsPerVisit,
  cooldownMinutes: shops.cooldownMinutes,
  dailyCap: shops.dailyCap,
  cardDesign: shops.cardDesign,
  timezone: shops.timezone,
  hasLogo: sql<boolean>`${shops.logo} is not null`,
  shopUpdatedAt: shops.updatedAt,
};

const cardsQuery = (db: Db) => db.select(cardColumns).from(cards).innerJoin(shops, eq(shops.id, cards.shopId));
type CardRow = Awaited<ReturnType<typeof cardsQuery>>[number];

type Glance = Awaited<ReturnType<typeof rewardsGlance>>;

function cardDto(r: CardRow, now: Date, glance: Glance) {
  const check = checkVisit({ lastScanAt: r.lastScanAt, dayKey: r.dayKey, dayCount: r.dayCount }, r, now, r.timezone);
  return {
    id: r.id,
    shop: {
      id: r.shopId,
      slug: r.shopSlug,
      name: r.shopName,
      city: r.shopCity,
      status: r.shopStatus,
      logoUrl: imageUrl(r.shopSlug, "logo", Boolean(r.hasLogo), r.shopUpdatedAt),
      design: designOf(r.cardDesign),
    },
    mode: r.cardMode,
    stampsGoal: r.stampsGoal,
    pointsPerVisit: r.pointsPerVisit,
    balance: r.balance,
    lifetime: r.lifetime,
    visits: r.visits,
    progress: cardProgress(r.cardMode, r.stampsGoal, r.balance),
    lastScanAt: r.lastScanAt?.toISOString() ?? null,
    since: r.createdAt.toISOString(),
    canScanNow: check.ok,
    nextScanAt: check.ok ? null : check.nextAt.toISOString(),
    /** How many rewards the balance pays for now, and the next one to aim for. */
    rewards: glance.get(r.id) ?? { reachable: 0, next: null },
  };
}

/** /cartes-de-fidelite: my cards, in each shop's design, last visited first. */
export async function listMyCards(db: Db, userId: string, now = new Date()) {
  const rows = await cardsQuery(db)
    .where(eq(cards.userId, userId))
    .orderBy(sql`${cards.lastScanAt} desc nulls last`, desc(cards.createdAt));
  const glance = await rewardsGlance(db, rows.map((r) => ({ id: r.id, shopId: r.shopId, balance: r.balance })));
  return rows.map((r) => cardDto(r, now, glance));
}

function entryDto(e: {
  id: string;
  kind: LedgerKind;
  delta: number;
  reason: string | null;
  createdAt: Date;
  shopSlug: string;
  shopName: string;
  cardMode: "stamps" | "points";
  cardId: string;
}) {
  return {
    id: e.id,
    kind: e.kind,
    kindLabel: LEDGER_KIND_LABELS_FR[e.kind],
    delta: e.delta,
    reason: e.reason,
    createdAt: e.createdAt.toISOString(),
    cardId: e.cardId,
    mode: e.cardMode,
    shop: { slug: e.shopSlug, name: e.shopName },
  };
}

const entryColumns = {
  id: ledgerEntries.id,
  kind: ledgerEntries.kind,
  delta: ledgerEntries.delta,
  reason: ledgerEntries.reason,
  createdAt: ledgerEntries.createdAt,
  cardId: ledgerEntries.cardId,
  shopSlug: shops.slug,
  shopName: shops.name,
  cardMode: shops.cardMode,
};

/** One of my cards with its latest ledger entries; another's card is "not found". */
export async function getMyCard(db: Db, userId: string, cardId: string, now = new Date()) {
  const [row] = await cardsQuery(db)
    .where(and(eq(cards.id, cardId), eq(cards.userId, userId)))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Carte introuvable." });
  const entries = await db
    .select(entryColumns)
    .from(ledgerEntries)
    .innerJoin(shops, eq(shops.id, ledgerEntries.shopId))
    .where(eq(ledgerEntries.cardId, cardId))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(50);
  const glance = await rewardsGlance(db, [{ id: row.id, shopId: row.shopId, balance: row.balance }]);
  return { card: cardDto(row, now, glance), entries: entries.map(entryDto) };
}

/** /dashboard: my recent activity from the ledger, all shops, newest first. */
export async function listMyActivity(db: Db, userId: string, q: { limit: number; before?: string; kind?: LedgerKind }) {
  const rows = await db
    .select(entryColumns)
    .from(ledgerEntries)
    .innerJoin(cards, eq(cards.id, ledgerEntries.cardId))
    .innerJoin(shops, eq(shops.id, ledgerEntries.shopId))
    .where(
      and(
        eq(cards.userId, userId),
        q.before ? lt(ledgerEntries.createdAt, new Date(q.before)) : undefined,
        q.kind ? eq(ledgerEntries.kind, q.kind) : undefined,
      ),
    )
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(q.limit + 1);
  const entries = rows.slice(0, q.limit).map(entryDto);
  return { entries, nextBefore: rows.length > q.limit ? (entries.at(-1)?.createdAt ?? null) : null };
}

const lifetimeKinds = sql.raw(LIFETIME_KINDS.map((k) => `'${k}'`).join(", "));

/**
 * Recomputes cards' balance and lifetime from their ledger (all cards, or one
 * shop's): the stored figures are caches of the ledger. Returns how many cards
 * were off (0 when the trigger did its job).
 */
export async function rebuildCardTotals(db: Db, scope: { shopId?: string; cardId?: string } = {}) {
  const result = await db.execute<{ id: string }>(sql`
    with totals as (
      select c.id,
             coalesce(sum(l.delta), 0)::int as balance,
             coalesce(sum(l.delta) filter (where l.kind in (${lifetimeKinds})), 0)::int as lifetime
      from cards c left join ledger_entries l on l.card_id = c.id
      where (${scope.shopId ?? null}::text is null or c.shop_id = ${scope.shopId ?? null}::text)
        and (${scope.cardId ?? null}::text is null or c.id = ${scope.cardId ?? null}::text)
      group by c.id
    )
    update cards c set balance = t.balance, lifetime = t.lifetime, updated_at = now()
    from totals t
    where c.id = t.id and (c.balance <> t.balance or c.lifetime <> t.lifetime)
    returning c.id`);
  return { corrected: result.rows.length };
}

/** Cards whose stored totals differ from their ledger (for checks and tests). */
export async function findLedgerMismatches(db: Db, shopId?: string) {
  const result = await db.execute<{ id: string; balance: number; ledger_balance: number; lifetime: number; ledger_lifetime: number }>(sql`
    select c.id, c.balance, t.balance as ledger_balance, c.lifetime, t.lifetime as ledger_lifetime
    from cards c
    join lateral (
      select coalesce(sum(l.delta), 0)::int as balance,
             coalesce(sum(l.delta) filter (where l.kind in (${lifetimeKinds})), 0)::int as lifetime
      from ledger_entries l where l.card_id = c.id
    ) t on true
    where (${shopId ?? null}::text is null or c.shop_id = ${shopId ?? null}::text)
      and (c.balance <> t.balance or c.lifetime <> t.lifetime)`);
  return result.rows;
}
