import { and, eq, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import { type EntrySignals, GROUP_SIGNAL_LABELS_FR, groupEntrants } from "../../../domain/contests/one-person.ts";
import { CLAIMS_DEADLINE_DAYS } from "../../../domain/contests/rules-text.ts";
import type { Db } from "../../db/client.ts";
import { contestEntries, contests, profiles } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { contestNotFound, participantIdOf, type Tx } from "./shared.ts";

/* One person, one entry (issue 22 row 3, src/domain/contests/one-person.ts, ADR 0033) ------------------------- */

/** A contest's entries with what links accounts: the device id and network stored with each, the profile's mobile. */
export async function entrySignals(tx: Tx, contestId: string): Promise<EntrySignals[]> {
  const rows = await tx
    .select({
      entryId: contestEntries.id,
      userId: contestEntries.userId,
      createdAt: contestEntries.createdAt,
      deviceId: contestEntries.deviceId,
      network: contestEntries.network,
      phone: profiles.phone,
    })
    .from(contestEntries)
    .leftJoin(profiles, eq(profiles.id, contestEntries.userId))
    .where(and(eq(contestEntries.contestId, contestId), isNotNull(contestEntries.userId)));
  return rows.map((r) => ({ ...r, userId: r.userId! }));
}

type PlaySignals = { deviceId: string | null; network: string | null; phone: string | null };

/**
 * The wheel: whether another account linked to this one (same device, network or mobile) has already spun in this
 * period. The group's signals are locked first (transaction-scoped advisory locks, in a fixed order), so four
 * accounts spinning at the same instant from one network are served one after the other: one spin, not four.
 */
export async function groupHasPlayed(
  tx: Tx,
  input: { contestId: string; period: string; userId: string } & PlaySignals,
): Promise<boolean> {
  const keys = [
    input.deviceId && `device:${input.deviceId}`,
    input.network && `network:${input.network}`,
    input.phone && `phone:${input.phone}`,
  ].filter((k): k is string => Boolean(k));
  if (keys.length === 0) return false;
  for (const key of keys.sort())
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`contest:${input.contestId}:${key}`}, 0))`);
  const [row] = await tx
    .select({ id: contestEntries.id })
    .from(contestEntries)
    .leftJoin(profiles, eq(profiles.id, contestEntries.userId))
    .where(
      and(
        eq(contestEntries.contestId, input.contestId),
        eq(contestEntries.period, input.period),
        sql`${contestEntries.userId} <> ${input.userId}`,
        or(
          input.deviceId ? eq(contestEntries.deviceId, input.deviceId) : undefined,
          input.network ? eq(contestEntries.network, input.network) : undefined,
          input.phone ? eq(profiles.phone, input.phone) : undefined,
        ),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * What the owner sees before the draw: each group of linked accounts, what links them, whose entries count and
 * whose are set aside — the rule of the règlement, applied by the draw itself (draw.service.ts).
 */
export async function listEntrantGroups(db: Db, access: ShopAccess, contestId: string) {
  const [contest] = await db
    .select({ id: contests.id })
    .from(contests)
    .where(and(eq(contests.id, contestId), eq(contests.shopId, shopScope(access))));
  if (!contest) throw contestNotFound();
  const entries = await entrySignals(db, contestId);
  const { groups, excludedEntryIds } = groupEntrants(entries);
  const names = new Map(
    (
      await db
        .select({ id: profiles.id, firstName: profiles.firstName, lastName: profiles.lastName })
        .from(profiles)
        .innerJoin(contestEntries, eq(contestEntries.userId, profiles.id))
        .where(eq(contestEntries.contestId, contestId))
    ).map((p) => [p.id, [p.firstName, p.lastName].filter(Boolean).join(" ").trim() || "Client"]),
  );
  return {
    entries: entries.length,
    excludedEntries: excludedEntryIds.size,
    groups: await Promise.all(
      groups.map(async (g) => ({
        reasons: g.signals.map((s) => GROUP_SIGNAL_LABELS_FR[s]),
        accounts: await Promise.all(
          g.userIds.map(async (u) => ({
            /** The pseudonym of the published list: the owner can find the kept one there after the draw. */
            participantId: await participantIdOf(contestId, u),
            name: names.get(u) ?? "Client",
            firstEntryAt: g.firstEntryAt[u]!.toISOString(),
            counted: u === g.keptUserId,
          })),
        ),
      })),
    ),
  };
}

/**
 * RGPD: the device id and network of an entry serve until claims about the contest are closed (the règlement's
 * deadline, CLAIMS_DEADLINE_DAYS after its end); then they are erased. Run by the contests' background pass.
 */
export async function forgetEntrySignals(db: Db, now = new Date()) {
  const until = new Date(now.getTime() - CLAIMS_DEADLINE_DAYS * 86_400_000);
  const ended = db.select({ id: contests.id }).from(contests).where(lt(contests.endsAt, until));
  const rows = await db
    .update(contestEntries)
    .set({ deviceId: null, network: null })
    .where(
      and(
        or(isNotNull(contestEntries.deviceId), isNotNull(contestEntries.network)),
        inArray(contestEntries.contestId, ended),
      ),
    )
    .returning({ id: contestEntries.id });
  return rows.length;
}
