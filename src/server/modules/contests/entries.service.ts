import { and, eq, sql } from "drizzle-orm";
import { contestPhase, ineligibilityReason, periodKey } from "../../../domain/contests/contests.ts";
import { pickSlice, secureRandomBelow, ODDS_SCALE } from "../../../domain/contests/wheel.ts";
import { AppError } from "../../../domain/errors.ts";
import type { Db } from "../../db/client.ts";
import { cards, contestEntries, contests, prizeLots, profiles, shops, user } from "../../db/schema/index.ts";
import { member } from "../../db/schema/auth.ts";
import { prizesOf } from "./contests.service.ts";
import { groupHasPlayed } from "./one-person.service.ts";
import { contestNotFound, insertWinning, type Tx } from "./shared.ts";

/** Who is playing, as best the app can tell a person (one-person.ts): the account, its device and network. */
export type Player = { userId: string; deviceId: string | null; network: string | null };

/* What shoppers see ------------------------------------------------------------------------------------------ */
/** Taking part: entering a draw, spinning a wheel (the lot taken from stock in the same transaction). */

async function openContestFor(tx: Tx, id: string, userId: string, now: Date) {
  const [row] = await tx
    .select({
      contest: contests,
      timezone: shops.timezone,
      emailVerified: user.emailVerified,
      isShopMember: sql<boolean>`exists (select 1 from ${member} m where m.organization_id = ${contests.shopId} and m.user_id = ${userId})`,
      hasVisited: sql<boolean>`exists (select 1 from ${cards} c where c.shop_id = ${contests.shopId} and c.user_id = ${userId} and c.visits > 0)`,
      phone: profiles.phone,
    })
    .from(contests)
    .innerJoin(shops, eq(shops.id, contests.shopId))
    .innerJoin(user, eq(user.id, userId))
    .leftJoin(profiles, eq(profiles.id, userId))
    .where(and(eq(contests.id, id), sql`${contests.status} <> 'draft'`, eq(shops.status, "active")));
  if (!row) throw contestNotFound();
  const phase = contestPhase(row.contest, now);
  if (phase !== "open")
    throw new AppError("CONFLICT", {
      userMessage: phase === "scheduled" ? "Ce jeu n'a pas encore commencé." : "Ce jeu est terminé.",
    });
  const reason = ineligibilityReason(
    { emailVerified: row.emailVerified, isShopMember: Boolean(row.isShopMember), hasVisited: Boolean(row.hasVisited) },
    row.contest.eligibility,
  );
  if (reason) throw new AppError("FORBIDDEN", { message: "not eligible", userMessage: reason });
  return { contest: row.contest, timezone: row.timezone, phone: row.phone };
}

/**
 * One entry, or none: the next free number within the person's allowance for this period; the unique index
 * refuses a twin made at the same instant.
 */
async function takeEntry(
  tx: Tx,
  contestId: string,
  player: Player,
  period: string,
  allowance: number,
  consent: boolean,
  now: Date,
) {
  const { userId } = player;
  const result = await tx.execute<{ id: string }>(sql`
    with mine as (
      select count(*)::int as n from ${contestEntries} e
      where e.contest_id = ${contestId} and e.user_id = ${userId} and e.period = ${period})
    insert into ${contestEntries} (contest_id, user_id, period, n, marketing_consent, device_id, network, created_at)
    select ${contestId}, ${userId}, ${period}, mine.n + 1, ${consent}, ${player.deviceId}, ${player.network},
      ${now.toISOString()}::timestamptz from mine
    where mine.n < ${allowance}
    on conflict do nothing
    returning id`);
  return result.rows[0] ?? null;
}

/**
 * A draw entry. Accounts linked to others (same device, network or mobile) still enter: the draw sets aside all
 * but the group's first entrant, as the règlement says, and the owner sees the groups before (one-person.service).
 */
export async function enterDraw(db: Db, player: Player, id: string, consent: boolean, now = new Date()) {
  const { userId } = player;
  return db.transaction(async (tx) => {
    const { contest } = await openContestFor(tx, id, userId, now);
    if (contest.kind !== "draw") throw new AppError("CONFLICT", { userMessage: "Ce jeu se joue avec la roue." });
    const entry = await takeEntry(tx, id, player, "contest", contest.entriesPerPerson, consent, now);
    if (!entry)
      throw new AppError("CONFLICT", {
        userMessage:
          contest.entriesPerPerson === 1
            ? "Vous participez déjà à ce tirage."
            : "Vous avez utilisé toutes vos participations à ce tirage.",
      });
    const [count] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(contestEntries)
      .where(and(eq(contestEntries.contestId, id), eq(contestEntries.userId, userId)));
    return { entryId: entry.id, myEntries: count?.n ?? 1 };
  });
}

/**
 * A spin of the wheel. The result is decided here with the CSPRNG, in the transaction that takes the lot from
 * stock: `remaining - 1 … where remaining > 0` cannot go below zero, and a slice whose lot ran out (now, or in a
 * spin that committed first) loses.
 */
export async function spinWheel(db: Db, player: Player, id: string, consent: boolean, now = new Date()) {
  const { userId } = player;
  return db.transaction(async (tx) => {
    const { contest, timezone, phone } = await openContestFor(tx, id, userId, now);
    if (contest.kind !== "wheel")
      throw new AppError("CONFLICT", { userMessage: "Ce jeu est un tirage au sort, pas une roue." });
    const period = periodKey(contest.spinPeriod, now, timezone);
    const when = { day: "aujourd'hui", week: "cette semaine", contest: "à ce jeu" }[contest.spinPeriod];
    const comeBack = { day: " : revenez demain !", week: " : revenez la semaine prochaine !", contest: "." }[
      contest.spinPeriod
    ];
    // One spin per person and period: another account on this device, network or mobile has played (règlement, art. 3).
    if (
      await groupHasPlayed(tx, {
        contestId: id,
        period,
        userId,
        deviceId: player.deviceId,
        network: player.network,
        phone,
      })
    )
      throw new AppError("CONFLICT", {
        message: "wheel: the group has played",
        userMessage: `Un autre compte a déjà joué ${when} depuis cet appareil, ce réseau internet ou ce numéro de mobile : une seule participation par personne.`,
      });
    const entry = await takeEntry(tx, id, player, period, 1, consent, now);
    if (!entry) throw new AppError("CONFLICT", { userMessage: `Vous avez déjà joué ${when}${comeBack}` });
    const prizes = await prizesOf(tx, [id]);
    const slice = pickSlice(
      prizes.map((p) => ({ ...p, inStock: p.remaining > 0 })),
      secureRandomBelow(ODDS_SCALE),
    );
    let won: { prize: (typeof prizes)[number]; winningId: string; code: string; claimBy: string } | null = null;
    if (slice) {
      const [taken] = await tx
        .update(prizeLots)
        .set({ remaining: sql`${prizeLots.remaining} - 1` })
        .where(and(eq(prizeLots.id, slice.lotId), sql`${prizeLots.remaining} > 0`))
        .returning({ id: prizeLots.id });
      if (taken) {
        const row = await insertWinning(tx, {
          shopId: contest.shopId,
          contestId: id,
          prizeId: slice.id,
          lotId: slice.lotId,
          entryId: entry.id,
          userId,
          drawRank: null,
          claimDays: slice.claimDays,
          handover: slice.handover,
          points: slice.points,
          lotName: slice.name,
          now,
        });
        await tx.update(contestEntries).set({ prizeId: slice.id }).where(eq(contestEntries.id, entry.id));
        won = { prize: slice, winningId: row.id, code: row.code, claimBy: row.claimBy.toISOString() };
      }
    }
    // Slices in the order the wheel draws them (the losing slice last): the page turns to the index given.
    const sliceIndex = won ? prizes.findIndex((p) => p.id === won.prize.id) : prizes.length;
    return {
      won: won !== null,
      sliceIndex,
      slices: [...prizes.map((p) => ({ id: p.id, label: p.name })), { id: "perdu", label: "Perdu" }],
      winning: won
        ? {
            id: won.winningId,
            lotName: won.prize.name,
            code: won.code,
            claimBy: won.claimBy,
            handover: won.prize.handover,
            points: won.prize.points,
          }
        : null,
    };
  });
}

/* Featured pages (/jeu-concours-cajvb …) --------------------------------------------------------------------- */
