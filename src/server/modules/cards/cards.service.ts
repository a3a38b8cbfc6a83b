import { and, desc, eq, lt, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { cardProgress, LEDGER_KIND_LABELS_FR, type LedgerKind } from "../../../domain/loyalty/ledger.ts";
import { checkVisit } from "../../../domain/loyalty/scan-rules.ts";
import type { Db } from "../../db/client.ts";
import { cards, ledgerEntries, shops } from "../../db/schema/index.ts";
import { rewardsGlance } from "../rewards/rewards.service.ts";
import { type RunningOffer, runningOffers } from "../messages/offers.service.ts";
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

function cardDto(r: CardRow, now: Date, glance: Glance, offers: RunningOffer[]) {
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
    /** The shop's offers to me still running (an automation's: double points, a reward to claim on /vip). */
    offers: offers
      .filter((o) => o.cardId === r.id)
      .map((o) => ({
        kind: o.kind,
        until: o.until,
        timeZone: r.timezone,
        rewardTitle: o.rewardTitle,
        claimed: o.status !== null,
      })),
  };
}

/** /cartes-de-fidelite: my cards, in each shop's design, last visited first. */
export async function listMyCards(db: Db, userId: string, now = new Date()) {
  const rows = await cardsQuery(db)
    .where(eq(cards.userId, userId))
    .orderBy(sql`${cards.lastScanAt} desc nulls last`, desc(cards.createdAt));
  const [glance, offers] = await Promise.all([
    rewardsGlance(
      db,
      rows.map((r) => ({ id: r.id, shopId: r.shopId, balance: r.balance })),
    ),
    runningOffers(db, userId, now),
  ]);
  return rows.map((r) => cardDto(r, now, glance, offers));
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
  return { card: cardDto(row, now, glance, await runningOffers(db, userId, now)), entries: entries.map(entryDto) };
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
