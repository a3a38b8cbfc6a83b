import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import {
  DEFAULT_MONTHLY_CAP,
  REFERRAL_FLAG_LABELS_FR,
  REFERRAL_STATUS_LABELS_FR,
  type ReferralFlag,
  type ReferralSettings,
  type ReferralStatus,
} from "../../../domain/referrals/referrals.ts";
import type { Db } from "../../db/client.ts";
import { type ShopAccess, scopedShop, shopScope } from "../../lib/shop-access.ts";
import { assertOwnRewards } from "../rewards/catalogue.service.ts";
import { releaseReferral } from "./release.service.ts";

/** /admin/parrainage (issue 28 item 1, ADR 0048): the owner's settings, who brought whom, the rings held. */

const LIST_LIMIT = 200;

const nameOf = (first: string | null, last: string | null) =>
  [first, last].filter(Boolean).join(" ").trim() || "Client";

export async function getReferralPage(db: Db, access: ShopAccess) {
  const shop = await scopedShop(db, access);
  const [program] = (
    await db.execute<{
      enabled: boolean;
      sponsor_points: number | null;
      sponsor_reward_id: string | null;
      friend_points: number | null;
      friend_reward_id: string | null;
      monthly_cap: number;
    }>(sql`select enabled, sponsor_points, sponsor_reward_id, friend_points, friend_reward_id, monthly_cap
      from referral_programs where shop_id = ${shop.id}`)
  ).rows;
  const rows = (
    await db.execute<{
      id: string;
      status: ReferralStatus;
      flags: ReferralFlag[] | string;
      created_at: string | Date;
      visit_at: string | Date | null;
      released_at: string | Date | null;
      sponsor_rewarded: boolean | null;
      sponsor_gift: string | null;
      friend_gift: string | null;
      sponsor_first: string | null;
      sponsor_last: string | null;
      friend_first: string | null;
      friend_last: string | null;
    }>(sql`
      select r.id, r.status, r.flags, r.created_at, r.visit_at, r.released_at, r.sponsor_rewarded, r.sponsor_gift,
        r.friend_gift, sp.first_name as sponsor_first, sp.last_name as sponsor_last, fp.first_name as friend_first,
        fp.last_name as friend_last
      from referrals r left join profiles sp on sp.id = r.sponsor_id left join profiles fp on fp.id = r.friend_id
      where r.shop_id = ${shopScope(access)}
      order by (r.status = 'held') desc, r.created_at desc limit ${LIST_LIMIT}`)
  ).rows;
  const [totals] = (
    await db.execute<{ waiting: number; held: number; released: number; refused: number }>(sql`
      select count(*) filter (where status = 'waiting')::int as waiting, count(*) filter (where status = 'held')::int as held,
        count(*) filter (where status = 'released')::int as released, count(*) filter (where status = 'refused')::int as refused
      from referrals where shop_id = ${shop.id}`)
  ).rows;
  const rewards = (
    await db.execute<{ id: string; title: string }>(sql`
      select id, title from rewards where shop_id = ${shop.id} and archived_at is null order by position, title`)
  ).rows;
  const iso = (d: string | Date | null) => (d ? new Date(d).toISOString() : null);
  const flagsOf = (f: ReferralFlag[] | string): ReferralFlag[] =>
    (Array.isArray(f) ? f : f.replace(/[{}]/g, "").split(",").filter(Boolean)) as ReferralFlag[];
  return {
    shopName: shop.name,
    cardMode: shop.cardMode,
    settings: {
      enabled: program?.enabled ?? false,
      sponsor: { points: program?.sponsor_points ?? null, rewardId: program?.sponsor_reward_id ?? null },
      friend: { points: program?.friend_points ?? null, rewardId: program?.friend_reward_id ?? null },
      monthlyCap: program?.monthly_cap ?? DEFAULT_MONTHLY_CAP,
    },
    rewards,
    totals: {
      waiting: Number(totals?.waiting ?? 0),
      held: Number(totals?.held ?? 0),
      released: Number(totals?.released ?? 0),
      refused: Number(totals?.refused ?? 0),
    },
    referrals: rows.map((r) => ({
      id: r.id,
      sponsor: nameOf(r.sponsor_first, r.sponsor_last),
      friend: nameOf(r.friend_first, r.friend_last),
      status: r.status,
      statusLabel: REFERRAL_STATUS_LABELS_FR[r.status],
      reasons: flagsOf(r.flags).map((f) => REFERRAL_FLAG_LABELS_FR[f] ?? "membre de l'équipe"),
      createdAt: iso(r.created_at)!,
      visitAt: iso(r.visit_at),
      releasedAt: iso(r.released_at),
      sponsorRewarded: r.sponsor_rewarded,
      sponsorGift: r.sponsor_gift,
      friendGift: r.friend_gift,
    })),
  };
}

export async function saveReferralProgram(db: Db, access: ShopAccess, s: ReferralSettings) {
  const shop = await scopedShop(db, access);
  await assertOwnRewards(db, access, [s.sponsor.rewardId, s.friend.rewardId]);
  await db.execute(sql`
    insert into referral_programs (shop_id, enabled, sponsor_points, sponsor_reward_id, friend_points, friend_reward_id, monthly_cap)
    values (${shop.id}, ${s.enabled}, ${s.sponsor.points}, ${s.sponsor.rewardId}, ${s.friend.points}, ${s.friend.rewardId}, ${s.monthlyCap})
    on conflict (shop_id) do update set enabled = excluded.enabled, sponsor_points = excluded.sponsor_points,
      sponsor_reward_id = excluded.sponsor_reward_id, friend_points = excluded.friend_points,
      friend_reward_id = excluded.friend_reward_id, monthly_cap = excluded.monthly_cap, updated_at = now()`);
}

/**
 * The owner's decision on a held referral: released (within the sponsor's monthly cap, as any other) or refused.
 * Once: a second decision, or one on a referral that is not held, is refused in French.
 */
export async function decideReferral(db: Db, access: ShopAccess, referralId: string, release: boolean) {
  const [r] = (
    await db.execute<{ status: ReferralStatus }>(sql`
      select status from referrals where id = ${referralId} and shop_id = ${shopScope(access)}`)
  ).rows;
  if (!r) throw new AppError("NOT_FOUND", { userMessage: "Parrainage introuvable." });
  const alreadyDecided = () =>
    new AppError("CONFLICT", { userMessage: "Ce parrainage n'attend plus de décision : la page est à jour." });
  if (r.status !== "held") throw alreadyDecided();
  if (release) {
    const outcome = await releaseReferral(db, referralId, { approve: { by: access.userId } });
    if (outcome !== "released") throw alreadyDecided();
    return;
  }
  const refused = await db.execute(sql`
    update referrals set status = 'refused', decided_by = ${access.userId}, decided_at = now()
    where id = ${referralId} and status = 'held' returning id`);
  if (refused.rows.length === 0) throw alreadyDecided();
}
