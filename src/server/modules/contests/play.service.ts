import { and, desc, eq, inArray, sql } from "drizzle-orm";
import {
  alreadyPlayedFr,
  CONTEST_PHASE_LABELS_FR,
  contestPhase,
  ELIGIBILITY_LABELS_FR,
  LOT_QR_PREFIX,
  nextPeriodStart,
  periodKey,
  WINNING_STATUS_LABELS_FR,
} from "../../../domain/contests/contests.ts";
import type { FeaturedSlot } from "../../../domain/contests/schemas.ts";
import { losingOddsBp } from "../../../domain/contests/wheel.ts";
import { AppError } from "../../../domain/errors.ts";
import { formatEuros } from "../../../domain/format.ts";
import type { Db } from "../../db/client.ts";
import {
  cards,
  contestEntries,
  contests,
  contestWinnings,
  featuredContests,
  prizeLots,
  shops,
} from "../../db/schema/index.ts";
import { contestHeadDto, prizeDto, prizesOf } from "./contests.service.ts";
import { contestNotFound, participantIdOf, type Tx, winningStateColumns, winningStateDto } from "./shared.ts";

/* What shoppers see ------------------------------------------------------------------------------------------ */

const publicColumns = {
  contest: contests,
  shopName: shops.name,
  shopSlug: shops.slug,
  shopCity: shops.city,
  shopLat: shops.lat,
  shopLng: shops.lng,
  timezone: shops.timezone,
};

const publicQuery = (db: Tx) => db.select(publicColumns).from(contests).innerJoin(shops, eq(shops.id, contests.shopId));
type PublicRow = Awaited<ReturnType<typeof publicQuery>>[number];

function summaryDto(
  r: PublicRow,
  prizes: Awaited<ReturnType<typeof prizesOf>>,
  now: Date,
  extra: { isMyShop?: boolean; distanceKm?: number | null; myEntries?: number } = {},
) {
  const c = r.contest;
  const mine = prizes.filter((p) => p.contestId === c.id);
  return {
    ...contestHeadDto(c, now),
    eligibilityLabel: ELIGIBILITY_LABELS_FR[c.eligibility],
    entriesPerPerson: c.entriesPerPerson,
    spinPeriod: c.spinPeriod,
    shop: { name: r.shopName, slug: r.shopSlug, city: r.shopCity },
    prizes: mine.map(prizeDto),
    losingOddsBp: c.kind === "wheel" ? losingOddsBp(mine) : null,
    isMyShop: extra.isMyShop ?? false,
    distanceKm: extra.distanceKm ?? null,
    myEntries: extra.myEntries ?? 0,
  };
}

const km = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) => {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 12_742 * Math.asin(Math.sqrt(h));
};

/** Open contests: in my shops first (those where I hold a card), then the nearest, then those ending soonest. */
export async function listOpenContests(
  db: Db,
  userId: string | null,
  near: { lat: number; lng: number } | null,
  now = new Date(),
) {
  const rows = await publicQuery(db)
    .where(
      and(
        eq(contests.status, "scheduled"),
        sql`${contests.startsAt} <= ${now}`,
        sql`${contests.endsAt} > ${now}`,
        eq(shops.status, "active"),
      ),
    )
    .limit(200);
  const ids = rows.map((r) => r.contest.id);
  const prizes = await prizesOf(db, ids);
  const myShops = new Set<string>();
  const myEntries = new Map<string, number>();
  if (userId && ids.length > 0) {
    for (const c of await db.select({ shopId: cards.shopId }).from(cards).where(eq(cards.userId, userId)))
      myShops.add(c.shopId);
    const entries = await db
      .select({ contestId: contestEntries.contestId, n: sql<number>`count(*)::int` })
      .from(contestEntries)
      .where(and(eq(contestEntries.userId, userId), inArray(contestEntries.contestId, ids)))
      .groupBy(contestEntries.contestId);
    for (const e of entries) myEntries.set(e.contestId, e.n);
  }
  const list = rows.map((r) =>
    summaryDto(r, prizes, now, {
      isMyShop: myShops.has(r.contest.shopId),
      distanceKm:
        near && r.shopLat !== null && r.shopLng !== null ? km(near, { lat: r.shopLat, lng: r.shopLng }) : null,
      myEntries: myEntries.get(r.contest.id) ?? 0,
    }),
  );
  list.sort(
    (a, b) =>
      Number(b.isMyShop) - Number(a.isMyShop) ||
      (a.distanceKm ?? Number.POSITIVE_INFINITY) - (b.distanceKm ?? Number.POSITIVE_INFINITY) ||
      a.endsAt.localeCompare(b.endsAt),
  );
  return { contests: list };
}

/** My entries and my wins. */
export async function myContests(db: Db, userId: string, now = new Date()) {
  const entries = await db
    .select({
      contestId: contests.id,
      title: contests.title,
      kind: contests.kind,
      status: contests.status,
      startsAt: contests.startsAt,
      endsAt: contests.endsAt,
      shopName: shops.name,
      count: sql<number>`count(*)::int`,
      last: sql<string>`max(${contestEntries.createdAt})`,
    })
    .from(contestEntries)
    .innerJoin(contests, eq(contests.id, contestEntries.contestId))
    .innerJoin(shops, eq(shops.id, contests.shopId))
    .where(eq(contestEntries.userId, userId))
    .groupBy(contests.id, shops.name)
    .orderBy(desc(sql`max(${contestEntries.createdAt})`))
    .limit(50);
  const wins = await db
    .select({
      ...winningStateColumns,
      lotName: prizeLots.name,
      handover: prizeLots.handover,
      points: prizeLots.points,
      valueCents: prizeLots.valueCents,
      contestId: contests.id,
      contestTitle: contests.title,
      shopName: shops.name,
      shopSlug: shops.slug,
    })
    .from(contestWinnings)
    .innerJoin(prizeLots, eq(prizeLots.id, contestWinnings.lotId))
    .innerJoin(contests, eq(contests.id, contestWinnings.contestId))
    .innerJoin(shops, eq(shops.id, contestWinnings.shopId))
    .where(eq(contestWinnings.userId, userId))
    .orderBy(desc(contestWinnings.createdAt))
    .limit(50);
  return {
    entries: entries.map((e) => {
      const phase = contestPhase(e, now);
      return {
        contestId: e.contestId,
        title: e.title,
        kind: e.kind,
        shopName: e.shopName,
        count: e.count,
        phase,
        phaseLabel: CONTEST_PHASE_LABELS_FR[phase],
        endsAt: e.endsAt.toISOString(),
      };
    }),
    wins: wins.map((w) => ({
      ...winningStateDto(w),
      qr: `${LOT_QR_PREFIX}${w.code}`,
      lotName: w.lotName,
      handover: w.handover,
      points: w.points,
      valueLabel: formatEuros(w.valueCents / 100),
      contestId: w.contestId,
      contestTitle: w.contestTitle,
      shop: { name: w.shopName, slug: w.shopSlug },
    })),
  };
}

/** The viewer's pseudonym when they are in the contest's published list, else null. */
async function viewerParticipantId(
  contestId: string,
  userId: string | null,
  entrants: { participantId: string }[] | null,
) {
  if (!userId || !entrants) return null;
  const mine = await participantIdOf(contestId, userId);
  return entrants.some((t) => t.participantId === mine) ? mine : null;
}

/**
 * A contest's public page: its details, and what makes the draw checkable — the seed's commitment from scheduling,
 * then the seed, the entrant list's hash and the winners (pseudonyms and ranks) once drawn. A draft is not public.
 */
export async function getPublicContest(db: Db, id: string, userId: string | null, now = new Date()) {
  const [row] = await publicQuery(db).where(and(eq(contests.id, id), sql`${contests.status} <> 'draft'`));
  if (!row) throw contestNotFound();
  const prizes = await prizesOf(db, [id]);
  const c = row.contest;
  let myEntries = 0;
  if (userId) {
    const [mine] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(contestEntries)
      .where(and(eq(contestEntries.contestId, id), eq(contestEntries.userId, userId)));
    myEntries = mine?.n ?? 0;
  }
  // The wheel knows before the tap whether this person has played this period, and when the next spin is.
  let wheelState: { played: boolean; nextSpinAt: string | null; message: string | null } | null = null;
  if (userId && c.kind === "wheel") {
    const [played] = await db
      .select({ id: contestEntries.id })
      .from(contestEntries)
      .where(
        and(
          eq(contestEntries.contestId, id),
          eq(contestEntries.userId, userId),
          eq(contestEntries.period, periodKey(c.spinPeriod, now, row.timezone)),
        ),
      )
      .limit(1);
    const next = nextPeriodStart(c.spinPeriod, now, row.timezone);
    wheelState = played
      ? {
          played: true,
          nextSpinAt: next && next < c.endsAt ? next.toISOString() : null,
          message: alreadyPlayedFr(next, c.endsAt, now, row.timezone),
        }
      : { played: false, nextSpinAt: null, message: null };
  }
  const winners =
    c.status === "drawn"
      ? (
          await db
            .select({
              rank: contestWinnings.drawRank,
              entryId: contestWinnings.entryId,
              status: contestWinnings.status,
              lotName: prizeLots.name,
            })
            .from(contestWinnings)
            .innerJoin(prizeLots, eq(prizeLots.id, contestWinnings.lotId))
            .where(eq(contestWinnings.contestId, id))
            .orderBy(contestWinnings.drawRank)
        ).map((w) => ({
          rank: (w.rank ?? 0) + 1,
          participantId: c.entrants?.find((t) => t.ticketId === w.entryId)?.participantId ?? null,
          lotName: w.lotName,
          status: w.status,
          statusLabel: WINNING_STATUS_LABELS_FR[w.status],
        }))
      : [];
  return {
    contest: summaryDto(row, prizes, now, { myEntries }),
    /** For a signed-in player of a wheel: played this period, and when the next spin is possible; else null. */
    wheel: wheelState,
    verification:
      c.kind === "draw"
        ? {
            commitment: c.seedCommitment,
            seed: c.status === "drawn" ? c.seed : null,
            entrantsHash: c.entrantsHash,
            entrantsCount: c.entrants?.length ?? null,
            drawnAt: c.drawnAt?.toISOString() ?? null,
            winners,
            /**
             * The signed-in viewer's own pseudonym in the published list, so the page can say « (vous) » beside it
             * (issue 25 row 18); null for anyone else. Never anybody else's: the list stays pseudonymous.
             */
            myParticipantId: await viewerParticipantId(id, userId, c.entrants),
          }
        : null,
  };
}

/** What scripts/verify-draw.mjs reads: the published seed, commitment, list and number of prizes. */
export async function getPublishedDraw(db: Db, id: string) {
  const [c] = await db
    .select()
    .from(contests)
    .where(and(eq(contests.id, id), eq(contests.kind, "draw"), eq(contests.status, "drawn")));
  if (!c) throw new AppError("NOT_FOUND", { userMessage: "Ce tirage n'a pas encore eu lieu." });
  const prizes = await prizesOf(db, [id]);
  return {
    contestId: c.id,
    commitment: c.seedCommitment,
    seed: c.seed,
    entrantsHash: c.entrantsHash,
    entrants: c.entrants ?? [],
    winnersCount: prizes.reduce((s, p) => s + p.quantity, 0),
  };
}

/* Taking part ----------------------------------------------------------------------------------------------- */

export async function getFeatured(db: Db, slot: FeaturedSlot, userId: string | null, now = new Date()) {
  const [pin] = await db
    .select({ contestId: featuredContests.contestId })
    .from(featuredContests)
    .where(eq(featuredContests.slot, slot));
  const pinned = pin ? await getPublicContest(db, pin.contestId, userId, now).catch(() => null) : null;
  const open = pinned ? [] : (await listOpenContests(db, userId, null, now)).contests;
  return { slot, pinned, open };
}

export async function setFeatured(db: Db, slot: FeaturedSlot, contestId: string | null) {
  if (!contestId) {
    await db.delete(featuredContests).where(eq(featuredContests.slot, slot));
    return { slot, contestId: null };
  }
  const [c] = await db
    .select({ id: contests.id })
    .from(contests)
    .where(and(eq(contests.id, contestId), sql`${contests.status} <> 'draft'`));
  if (!c) throw contestNotFound();
  await db
    .insert(featuredContests)
    .values({ slot, contestId })
    .onConflictDoUpdate({ target: featuredContests.slot, set: { contestId, updatedAt: new Date() } });
  return { slot, contestId };
}
