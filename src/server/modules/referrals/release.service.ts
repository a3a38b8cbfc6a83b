import { sql } from "drizzle-orm";
import { type EntrySignals, groupEntrants } from "../../../domain/contests/one-person.ts";
import { formatAmount } from "../../../domain/format.ts";
import { QUALIFYING_SCAN_METHODS, type ReferralFlag } from "../../../domain/referrals/referrals.ts";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../lib/context.ts";

/**
 * Releasing a referral (issue 28 item 1, ADR 0048). A referral is `waiting` until the friend's first visit credited
 * at the counter by a rotating code or a staff member (the poster proves no presence; a sign-up proves nothing).
 * Then, in one transaction holding the referral's row (a second attempt, from another process or the owner's second
 * tap, finds it no longer waiting and does nothing) and the sponsor's card (releases of one sponsor are counted one
 * after the other against the monthly cap):
 * - either of them is on the shop's team → refused (staff never sponsor nor are sponsored at their own shop);
 * - the friend is linked to another friend of the same sponsor, or to the sponsor, by device, network or mobile (the
 *   contests' one-person rule, src/domain/contests/one-person.ts) → held: the owner sees the ring and decides;
 * - otherwise released: the friend's side always, the sponsor's while fewer than the month's cap were given. Points
 *   are ledger entries of kind `referral` (unique per referral and card); a reward is a gift the shopper claims on
 *   /vip, handed over at the counter like any other (its `validation` entry on the ledger then).
 */

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Outcome = "released" | "held" | "refused" | "skipped";

type ReferralRow = {
  id: string;
  shop_id: string;
  sponsor_id: string | null;
  friend_id: string | null;
  status: string;
  created_at: string | Date;
};

/** The friend's first visit that counts, after they accepted, or null. */
async function qualifyingVisit(tx: Tx, r: ReferralRow): Promise<string | null> {
  const methods = sql.join(
    QUALIFYING_SCAN_METHODS.map((m) => sql`${m}`),
    sql`, `,
  );
  const rows = await tx.execute<{ at: string | Date }>(sql`
    select min(s.created_at) as at from scans s join cards c on c.id = s.card_id
    where c.shop_id = ${r.shop_id} and c.user_id = ${r.friend_id} and s.outcome = 'accepted'
      and s.method in (${methods}) and s.created_at >= ${new Date(r.created_at).toISOString()}::timestamptz`);
  const at = rows.rows[0]?.at;
  return at ? new Date(at).toISOString() : null;
}

/** Whether either side is a member of the shop's team (owner, manager, staff). */
async function involvesStaff(tx: Tx, r: ReferralRow): Promise<boolean> {
  const rows = await tx.execute<{ id: string }>(sql`
    select m.id from member m where m.organization_id = ${r.shop_id}
      and m.user_id in (${r.sponsor_id ?? ""}, ${r.friend_id ?? ""}) limit 1`);
  return rows.rows.length > 0;
}

/**
 * Why this friend is held, or none: the sponsor's friends at this shop and the sponsor's own link form "entries"
 * (device, network, mobile); a group of two accounts or more that holds this friend is a ring.
 */
async function ringFlags(tx: Tx | Db, r: Pick<ReferralRow, "shop_id" | "sponsor_id" | "friend_id">) {
  if (!r.sponsor_id || !r.friend_id) return [];
  const rows = await tx.execute<{
    id: string;
    user_id: string;
    created_at: string | Date;
    device_id: string | null;
    network: string | null;
    phone: string | null;
  }>(sql`
    select k.code as id, k.user_id, k.created_at, k.device_id, k.network, p.phone
      from referral_codes k left join profiles p on p.id = k.user_id
      where k.shop_id = ${r.shop_id} and k.user_id = ${r.sponsor_id}
    union all
    select f.id, f.friend_id, f.created_at, f.device_id, f.network, p.phone
      from referrals f left join profiles p on p.id = f.friend_id
      where f.shop_id = ${r.shop_id} and f.sponsor_id = ${r.sponsor_id} and f.friend_id is not null`);
  const entries: EntrySignals[] = rows.rows.map((e) => ({
    entryId: e.id,
    userId: e.user_id,
    createdAt: new Date(e.created_at),
    deviceId: e.device_id,
    network: e.network,
    phone: e.phone,
  }));
  const group = groupEntrants(entries).groups.find((g) => g.userIds.includes(r.friend_id!));
  if (!group) return [];
  const flags: ReferralFlag[] = [...group.signals];
  if (group.userIds.includes(r.sponsor_id)) flags.push("sponsor");
  return flags;
}

/** What one side is given: points on the ledger, or a reward to claim as a gift (its title kept in words). */
async function give(
  tx: Tx,
  r: ReferralRow,
  side: { userId: string; points: number | null; rewardId: string | null },
  reason: string,
): Promise<{ gift: string | null; rewardId: string | null }> {
  const [card] = (
    await tx.execute<{ id: string; card_mode: "stamps" | "points" }>(sql`
      select c.id, s.card_mode from cards c join shops s on s.id = c.shop_id
      where c.shop_id = ${r.shop_id} and c.user_id = ${side.userId} for update of c`)
  ).rows;
  if (!card) return { gift: null, rewardId: null };
  if (side.points) {
    await tx.execute(sql`
      insert into ledger_entries (card_id, shop_id, kind, delta, actor_id, reason, ref_id)
      values (${card.id}, ${r.shop_id}, 'referral', ${side.points}, null, ${reason}, ${r.id})
      on conflict (ref_id, card_id) where kind = 'referral' do nothing`);
    return { gift: formatAmount(card.card_mode, side.points), rewardId: null };
  }
  if (side.rewardId) {
    const [reward] = (
      await tx.execute<{ title: string }>(sql`
        select title from rewards where id = ${side.rewardId} and shop_id = ${r.shop_id} and archived_at is null`)
    ).rows;
    if (reward) return { gift: reward.title, rewardId: side.rewardId };
  }
  return { gift: null, rewardId: null };
}

/**
 * One attempt to release a referral. `approve`: the owner releases a held one (`by` is who); otherwise only a
 * waiting one with its qualifying visit moves. Safe to call any number of times at once: one call acts.
 */
export async function releaseReferral(
  db: Db,
  referralId: string,
  options: { approve?: { by: string } } = {},
): Promise<Outcome> {
  return db.transaction(async (tx) => {
    const [r] = (
      await tx.execute<ReferralRow>(sql`
        select id, shop_id, sponsor_id, friend_id, status, created_at from referrals where id = ${referralId} for update`)
    ).rows;
    if (!r?.sponsor_id || !r.friend_id) return "skipped";
    if (r.status !== (options.approve ? "held" : "waiting")) return "skipped";
    const visitAt = await qualifyingVisit(tx, r);
    if (!visitAt) return "skipped";
    if (await involvesStaff(tx, r)) {
      await tx.execute(sql`update referrals set status = 'refused', flags = '{staff}', visit_at = ${visitAt}::timestamptz,
        decided_at = now() where id = ${r.id}`);
      return "refused";
    }
    if (!options.approve) {
      const flags = await ringFlags(tx, r);
      if (flags.length > 0) {
        await tx.execute(sql`update referrals set status = 'held', flags = ${`{${flags.join(",")}}`}::text[],
          visit_at = ${visitAt}::timestamptz where id = ${r.id}`);
        return "held";
      }
    }
    const [program] = (
      await tx.execute<{
        sponsor_points: number | null;
        sponsor_reward_id: string | null;
        friend_points: number | null;
        friend_reward_id: string | null;
        monthly_cap: number;
        timezone: string;
        sponsor_name: string | null;
        friend_name: string | null;
      }>(sql`
        select p.sponsor_points, p.sponsor_reward_id, p.friend_points, p.friend_reward_id, p.monthly_cap, s.timezone,
          (select nullif(trim(coalesce(first_name, '')), '') from profiles where id = ${r.sponsor_id}) as sponsor_name,
          (select nullif(trim(coalesce(first_name, '')), '') from profiles where id = ${r.friend_id}) as friend_name
        from referral_programs p join shops s on s.id = p.shop_id where p.shop_id = ${r.shop_id}`)
    ).rows;
    if (!program) return "skipped";
    // The sponsor's card first: releases of one sponsor are counted one after the other.
    await tx.execute(sql`select id from cards where shop_id = ${r.shop_id} and user_id = ${r.sponsor_id} for update`);
    const [given] = (
      await tx.execute<{ n: number }>(sql`
        select count(*)::int as n from referrals
        where shop_id = ${r.shop_id} and sponsor_id = ${r.sponsor_id} and sponsor_rewarded
          and released_at >= (date_trunc('month', now() at time zone ${program.timezone}) at time zone ${program.timezone})`)
    ).rows;
    const sponsorRewarded = Number(given?.n ?? 0) < program.monthly_cap;
    const friend = await give(
      tx,
      r,
      { userId: r.friend_id, points: program.friend_points, rewardId: program.friend_reward_id },
      `Parrainage : bienvenue de la part de ${program.sponsor_name ?? "votre parrain"}`,
    );
    const sponsor = sponsorRewarded
      ? await give(
          tx,
          r,
          { userId: r.sponsor_id, points: program.sponsor_points, rewardId: program.sponsor_reward_id },
          `Parrainage : ${program.friend_name ?? "votre filleul"} est venu`,
        )
      : { gift: null, rewardId: null };
    await tx.execute(sql`
      update referrals set status = 'released', released_at = now(), visit_at = ${visitAt}::timestamptz,
        sponsor_rewarded = ${sponsorRewarded}, sponsor_gift = ${sponsor.gift}, friend_gift = ${friend.gift},
        sponsor_reward_id = ${sponsor.rewardId}, friend_reward_id = ${friend.rewardId},
        decided_by = ${options.approve?.by ?? null}, decided_at = case when ${Boolean(options.approve)}::boolean then now() end
      where id = ${r.id}`);
    return "released";
  });
}

/** At most this many referrals looked at per pass (the next pass takes the rest). */
const BATCH = 200;

/**
 * The job referrals.release: every waiting referral whose friend has had a qualifying visit, released (or held, or
 * refused) one by one. Called after a scan that may qualify and on a schedule (a process that died between the
 * scan and the job leaves nothing waiting for long).
 */
export async function releaseDueReferrals(deps: Pick<Deps, "db">) {
  const methods = sql.join(
    QUALIFYING_SCAN_METHODS.map((m) => sql`${m}`),
    sql`, `,
  );
  const due = await deps.db.execute<{ id: string }>(sql`
    select r.id from referrals r join cards c on c.shop_id = r.shop_id and c.user_id = r.friend_id
    where r.status = 'waiting' and c.visits > 0 and exists (select 1 from scans s where s.card_id = c.id
      and s.outcome = 'accepted' and s.method in (${methods}) and s.created_at >= r.created_at)
    order by r.created_at limit ${BATCH}`);
  const total = { released: 0, held: 0, refused: 0 };
  for (const { id } of due.rows) {
    const outcome = await releaseReferral(deps.db, id);
    if (outcome !== "skipped") total[outcome]++;
  }
  return total;
}

/**
 * After a credited visit (cards: the shopper's scan, the counter's credit): when the person has a referral waiting at
 * this shop (`waitingReferral`, answered by the scan's own statement: performScan's followUps), the job
 * referrals.release looks at it now (it also runs on a schedule). Never fails the visit.
 */
export async function queueReferralRelease(
  deps: Pick<Deps, "jobs" | "logger">,
  visit: { shopId: string | null; waitingReferral: boolean },
) {
  // Without a running engine (a test app, a tool) the schedule of a server takes it.
  if (!deps.jobs.started || !visit.shopId || !visit.waitingReferral) return;
  try {
    await deps.jobs.send("referrals.release", {});
  } catch (error) {
    deps.logger.warn("referrals: release left to the schedule", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
