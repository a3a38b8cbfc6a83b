import { and, asc, eq, lte, max, sql } from "drizzle-orm";
import { drawSequence, type Ticket } from "../../../domain/contests/draw.ts";
import { groupEntrants } from "../../../domain/contests/one-person.ts";
import { formatLocalDate } from "../../../domain/format.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import type { Db } from "../../db/client.ts";
import { contestEntries, contests, contestWinnings, prizeLots, shops, user } from "../../db/schema/index.ts";
import type { Logger } from "../../lib/logger.ts";
import type { Mailer } from "../mail/mail.service.ts";
import { mailTemplates } from "../mail/templates.ts";
import { deliverNotice } from "../messages/notice.service.ts";
import { contestPageUrl, prizesOf } from "./contests.service.ts";
import { entrySignals, forgetEntrySignals } from "./one-person.service.ts";
import { insertWinning, participantIdOf, type Tx } from "./shared.ts";
import { recordAudit } from "../../lib/audit.ts";
import type { Jobs } from "../../lib/context.ts";
import { emitContestWon } from "../webhooks/webhooks.service.ts";

/**
 * The draw, exactly once: the transaction starts by moving the contest from "scheduled" to "drawn" with a
 * conditional UPDATE; a second process (or a second click) finds nothing to update and does nothing. The entrant
 * list is frozen inside the same transaction, so an entry either made it before the draw or was refused.
 * One person, one entry: entries of accounts linked to an earlier entrant (same device, network or mobile) are set
 * aside before the list is frozen (src/domain/contests/one-person.ts, the règlement's article 3, ADR 0033).
 *
 * `runContestJobs` runs every minute as the contests.draw job (src/server/jobs/contests-draw.ts): it draws every due
 * draw, then replaces or expires unclaimed lots, then e-mails winners.
 */

type WonLot = { winningId: string; userId: string };

/** Draws one contest if it is a closed draw not drawn yet; returns the winnings made, or null if nothing was done. */
export async function drawContest({
  db,
  contestId,
  now = new Date(),
}: {
  db: Db;
  contestId: string;
  now?: Date;
}): Promise<WonLot[] | null> {
  return db.transaction(async (tx) => {
    const [contest] = await tx
      .update(contests)
      .set({ status: "drawn", drawnAt: now, updatedAt: now })
      .where(
        and(
          eq(contests.id, contestId),
          eq(contests.status, "scheduled"),
          eq(contests.kind, "draw"),
          lte(contests.endsAt, now),
        ),
      )
      .returning();
    if (!contest?.seed) return null;
    // An account deleted since is no longer a participant (entrySignals reads entries that still have one).
    const entries = await entrySignals(tx, contestId);
    const { groups, excludedEntryIds } = groupEntrants(entries);
    const byTicket = new Map<string, string>();
    const tickets: Ticket[] = [];
    for (const e of entries) {
      if (excludedEntryIds.has(e.entryId)) continue;
      byTicket.set(e.entryId, e.userId);
      tickets.push({ ticketId: e.entryId, participantId: await participantIdOf(contestId, e.userId) });
    }
    const prizes = await prizesOf(tx, [contestId]);
    const slots = prizes.flatMap((p) => Array.from({ length: p.quantity }, () => p));
    const { listHash, sequence } = await drawSequence(contest.seed, tickets, slots.length);
    tickets.sort((a, b) => (a.ticketId < b.ticketId ? -1 : a.ticketId > b.ticketId ? 1 : 0));
    await tx.update(contests).set({ entrantsHash: listHash, entrants: tickets }).where(eq(contests.id, contestId));
    const won: WonLot[] = [];
    for (const [rank, ticket] of sequence.entries()) {
      const prize = slots[rank]!;
      const userId = byTicket.get(ticket.ticketId)!;
      won.push(await awardTicket(tx, contest.shopId, prize, ticket.ticketId, userId, rank, now));
    }
    // Lots reserved at scheduling that found no winner (fewer participants than prizes) go back to stock.
    for (const [rank, prize] of slots.entries()) {
      if (rank < sequence.length) continue;
      await tx
        .update(prizeLots)
        .set({ remaining: sql`${prizeLots.remaining} + 1` })
        .where(eq(prizeLots.id, prize.lotId));
    }
    await recordAudit(tx, {
      actorId: null,
      shopId: contest.shopId,
      action: "contest.draw",
      target: contestId,
      details: {
        winners: won.length,
        entrants: tickets.length,
        groups: groups.length,
        excludedEntries: excludedEntryIds.size,
      },
    });
    return won;
  });
}

/** Draws every draw whose closing time has passed. Safe in several processes at once. */
async function drawDueContests({ db, now = new Date() }: { db: Db; now?: Date }): Promise<WonLot[]> {
  const due = await db
    .select({ id: contests.id })
    .from(contests)
    .where(and(eq(contests.status, "scheduled"), eq(contests.kind, "draw"), lte(contests.endsAt, now)))
    .orderBy(asc(contests.endsAt))
    .limit(50);
  const won: WonLot[] = [];
  for (const { id } of due) won.push(...((await drawContest({ db, contestId: id, now })) ?? []));
  return won;
}

/**
 * Lots not claimed in time. A draw's lot passes to the next participant in the draw's sequence (same lot, a new
 * claim period), logged in the old row's note; a wheel's lot goes back to stock. Each row ends exactly once (a
 * conditional UPDATE), and a rank is given at most once (a unique index).
 */
export async function expireUnclaimed({ db, now = new Date() }: { db: Db; now?: Date }): Promise<WonLot[]> {
  const due = await db
    .select({ id: contestWinnings.id })
    .from(contestWinnings)
    .where(and(eq(contestWinnings.status, "to_hand_over"), lte(contestWinnings.claimBy, now)))
    .limit(100);
  const won: WonLot[] = [];
  for (const { id } of due) {
    const next = await db.transaction(async (tx) => {
      const [old] = await tx
        .update(contestWinnings)
        .set({
          status: sql`case when ${contestWinnings.drawRank} is null then 'expired' else 'redrawn' end`,
          note: sql`case when ${contestWinnings.drawRank} is null then 'Non retiré dans le délai : lot remis en jeu.' else 'Non retiré dans le délai : lot réattribué au suivant du tirage.' end`,
        })
        .where(
          and(
            eq(contestWinnings.id, id),
            eq(contestWinnings.status, "to_hand_over"),
            lte(contestWinnings.claimBy, now),
          ),
        )
        .returning();
      if (!old) return null;
      if (old.drawRank === null) {
        await tx
          .update(prizeLots)
          .set({ remaining: sql`${prizeLots.remaining} + 1` })
          .where(eq(prizeLots.id, old.lotId));
        return null;
      }
      return redrawNext(tx, old.contestId, old.prizeId, now);
    });
    if (next) won.push(next);
  }
  return won;
}

/** The `rank`-th ticket of the draw's sequence wins `prize`: its winning, and whom to tell. */
async function awardTicket(
  tx: Tx,
  shopId: string,
  prize: Awaited<ReturnType<typeof prizesOf>>[number],
  ticketId: string,
  userId: string,
  rank: number,
  now: Date,
): Promise<WonLot> {
  const row = await insertWinning(tx, {
    shopId,
    contestId: prize.contestId,
    prizeId: prize.id,
    lotId: prize.lotId,
    entryId: ticketId,
    userId,
    drawRank: rank,
    claimDays: prize.claimDays,
    handover: prize.handover,
    points: prize.points,
    lotName: prize.name,
    now,
  });
  return { winningId: row.id, userId };
}

async function redrawNext(tx: Tx, contestId: string, prizeId: string, now: Date): Promise<WonLot | null> {
  const [contest] = await tx.select().from(contests).where(eq(contests.id, contestId));
  if (!contest?.seed || !contest.entrants) return null;
  const [last] = await tx
    .select({ rank: max(contestWinnings.drawRank) })
    .from(contestWinnings)
    .where(eq(contestWinnings.contestId, contestId));
  const rank = (last?.rank ?? -1) + 1;
  const { sequence } = await drawSequence(contest.seed, contest.entrants, rank + 1);
  const ticket = sequence[rank];
  const prize = (await prizesOf(tx, [contestId])).find((p) => p.id === prizeId);
  if (!prize) return null;
  if (!ticket) {
    // Nobody left in the sequence: the lot goes back to stock.
    await tx
      .update(prizeLots)
      .set({ remaining: sql`${prizeLots.remaining} + 1` })
      .where(eq(prizeLots.id, prize.lotId));
    return null;
  }
  const [entry] = await tx
    .select({ userId: contestEntries.userId })
    .from(contestEntries)
    .where(eq(contestEntries.id, ticket.ticketId));
  if (!entry?.userId) return null;
  return awardTicket(tx, contest.shopId, prize, ticket.ticketId, entry.userId, rank, now);
}

/**
 * Tells each winner by e-mail and in the app's inbox, as the règlement says (« informés dans l'application »; issue
 * 25 row 7); the home and /jeu-concours show the lot until it is handed over.
 */
export async function notifyWinners({
  db,
  mailer,
  appUrl,
  won,
  logger,
  jobs,
}: {
  db: Db;
  mailer: Mailer;
  appUrl: string;
  won: WonLot[];
  logger?: Logger;
  /** With the engine, the shop's webhooks hear of each lot won (`contest.won`, issue 29). */
  jobs?: Jobs;
}) {
  for (const w of won) {
    const [row] = await db
      .select({
        email: user.email,
        code: contestWinnings.code,
        claimBy: contestWinnings.claimBy,
        lotName: prizeLots.name,
        contestTitle: contests.title,
        contestId: contests.id,
        shopId: shops.id,
        userId: user.id,
        shopName: shops.name,
        timezone: shops.timezone,
      })
      .from(contestWinnings)
      .innerJoin(user, eq(user.id, contestWinnings.userId))
      .innerJoin(prizeLots, eq(prizeLots.id, contestWinnings.lotId))
      .innerJoin(contests, eq(contests.id, contestWinnings.contestId))
      .innerJoin(shops, eq(shops.id, contestWinnings.shopId))
      .where(eq(contestWinnings.id, w.winningId));
    if (!row) continue;
    if (jobs && logger) {
      await emitContestWon({ db, jobs, logger }, row.shopId, {
        winningId: w.winningId,
        contestId: row.contestId,
        contestTitle: row.contestTitle,
        lotName: row.lotName,
      });
    }
    const claimBy = formatLocalDate(localParts(row.claimBy, row.timezone).date);
    await deliverNotice(db, {
      shopId: row.shopId,
      userId: row.userId,
      title: `Vous avez gagné : ${row.lotName}`,
      body: `Vous avez gagné « ${row.lotName} » au jeu « ${row.contestTitle} » de ${row.shopName}. Présentez le code ${row.code} à la boutique avant le ${claimBy} pour retirer votre lot.`,
      linkUrl: "/jeu-concours",
    });
    try {
      await mailer.send({
        to: row.email,
        kind: "contest-win",
        ...mailTemplates["contest-win"]({
          url: contestPageUrl(appUrl, row.contestId),
          shopName: row.shopName,
          contestTitle: row.contestTitle,
          lotName: row.lotName,
          claimBy,
          code: row.code,
        }),
      });
    } catch (error) {
      logger?.error("contests: winner e-mail failed", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

/** One pass of the contests' background work: the job engine's handler. */
export async function runContestJobs(
  deps: { db: Db; mailer: Mailer; logger: Logger; appUrl: string; jobs?: Jobs },
  now = new Date(),
) {
  const drawn = await drawDueContests({ db: deps.db, now });
  const redrawn = await expireUnclaimed({ db: deps.db, now });
  await forgetEntrySignals(deps.db, now);
  const won = [...drawn, ...redrawn];
  if (won.length > 0) deps.logger.info(`contests: ${won.length} lot(s) won by draw`);
  await notifyWinners({ db: deps.db, mailer: deps.mailer, appUrl: deps.appUrl, won, logger: deps.logger, jobs: deps.jobs });
  return { drawn: drawn.length, redrawn: redrawn.length };
}
