import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { type CardMode, formatAmount } from "../../../domain/format.ts";
import type { Db } from "../../db/client.ts";

/**
 * The shopper's side of parrainage (issue 28 item 1, ADR 0048): my link for a shop, what a friend sees when they
 * open it, and accepting it. Nothing is given here: release.service.ts gives both sides after the friend's first
 * visit credited at the counter.
 */

/** Who is acting, and what links their accounts (one-person.ts): the phone's device id and the network. */
export type ReferralPerson = { userId: string; deviceId: string | null; network: string | null };

const notOpen = () =>
  new AppError("NOT_FOUND", { userMessage: "Cette boutique ne propose pas de parrainage pour le moment." });
const inviteNotFound = () => new AppError("NOT_FOUND", { userMessage: "Ce lien de parrainage n'existe pas ou plus." });

/** A share code: 10 letters and digits without look-alikes (about 50 bits). */
function newCode(): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join("");
}

type Program = {
  shop_id: string;
  name: string;
  slug: string;
  enabled: boolean;
  card_mode: "stamps" | "points";
  sponsor_points: number | null;
  friend_points: number | null;
  sponsor_reward: string | null;
  friend_reward: string | null;
  monthly_cap: number;
};

const PROGRAM = sql`select s.id as shop_id, s.name, s.slug, coalesce(p.enabled, false) as enabled, s.card_mode,
    p.sponsor_points, p.friend_points, p.monthly_cap,
    (select r.title from rewards r where r.id = p.sponsor_reward_id and r.archived_at is null) as sponsor_reward,
    (select r.title from rewards r where r.id = p.friend_reward_id and r.archived_at is null) as friend_reward
  from shops s left join referral_programs p on p.shop_id = s.id`;

/** « 20 points », « 1 tampon », or a reward's title: what one side is promised, in words. */
function giftFr(mode: CardMode, points: number | null, reward: string | null): string | null {
  return points ? formatAmount(mode, points) : reward;
}

async function openProgram(db: Db, where: ReturnType<typeof sql>): Promise<Program> {
  const [p] = (await db.execute<Program>(sql`${PROGRAM} where ${where} and s.status = 'active'`)).rows;
  if (!p?.enabled) throw notOpen();
  return p;
}

const isStaff = async (db: Db, shopId: string, userId: string) =>
  (await db.execute(sql`select 1 from member where organization_id = ${shopId} and user_id = ${userId} limit 1`)).rows
    .length > 0;

/**
 * My link to share for a shop: only a customer (a visit credited there) who is not on its team. The device and
 * network are kept with it, so a friend on the same phone or connection is seen as linked to the sponsor.
 */
export async function getMyReferralLink(db: Db, appUrl: string, person: ReferralPerson, shopSlug: string) {
  const p = await openProgram(db, sql`s.slug = ${shopSlug}`);
  if (await isStaff(db, p.shop_id, person.userId)) {
    throw new AppError("FORBIDDEN", {
      message: "staff cannot sponsor at their shop",
      userMessage: "Vous faites partie de l'équipe de cette boutique : vous ne pouvez pas y parrainer.",
    });
  }
  const [card] = (
    await db.execute<{ visits: number }>(sql`
      select visits from cards where shop_id = ${p.shop_id} and user_id = ${person.userId}`)
  ).rows;
  if (!card || card.visits < 1) {
    throw new AppError("CONFLICT", {
      userMessage: "Le parrainage s'ouvre après votre premier passage crédité dans cette boutique.",
    });
  }
  const [row] = (
    await db.execute<{ code: string }>(sql`
      insert into referral_codes (code, shop_id, user_id, device_id, network)
      values (${newCode()}, ${p.shop_id}, ${person.userId}, ${person.deviceId}, ${person.network})
      on conflict (shop_id, user_id) do update set
        device_id = coalesce(excluded.device_id, referral_codes.device_id),
        network = coalesce(excluded.network, referral_codes.network)
      returning code`)
  ).rows;
  const [counts] = (
    await db.execute<{ waiting: number; rewarded: number }>(sql`
      select count(*) filter (where status in ('waiting', 'held'))::int as waiting,
        count(*) filter (where status = 'released' and sponsor_rewarded)::int as rewarded
      from referrals where shop_id = ${p.shop_id} and sponsor_id = ${person.userId}`)
  ).rows;
  return {
    code: row!.code,
    url: new URL(`/parrainage/${row!.code}`, appUrl).toString(),
    shop: { name: p.name, slug: p.slug },
    sponsorGift: giftFr(p.card_mode, p.sponsor_points, p.sponsor_reward),
    friendGift: giftFr(p.card_mode, p.friend_points, p.friend_reward),
    monthlyCap: p.monthly_cap,
    waiting: Number(counts?.waiting ?? 0),
    rewarded: Number(counts?.rewarded ?? 0),
  };
}

type Invite = Program & { sponsor_id: string; sponsor_name: string | null };

async function findInvite(db: Db, code: string): Promise<Invite> {
  const [invite] = (
    await db.execute<Invite>(sql`
      select x.*, k.user_id as sponsor_id,
        (select nullif(trim(coalesce(first_name, '')), '') from profiles where id = k.user_id) as sponsor_name
      from referral_codes k join (${PROGRAM} where s.status = 'active') x on x.shop_id = k.shop_id
      where k.code = ${code}`)
  ).rows;
  if (!invite) throw inviteNotFound();
  if (!invite.enabled) throw notOpen();
  return invite;
}

/** What a friend sees on /parrainage/:code (signed in or not): the shop, who invites, what they will receive. */
export async function getInvite(db: Db, code: string, userId: string | null) {
  const invite = await findInvite(db, code);
  const [mine] = userId
    ? (
        await db.execute<{ status: string }>(sql`
          select status from referrals where shop_id = ${invite.shop_id} and friend_id = ${userId}`)
      ).rows
    : [];
  return {
    shop: { name: invite.name, slug: invite.slug },
    sponsorFirstName: invite.sponsor_name ?? "Un client",
    friendGift: giftFr(invite.card_mode, invite.friend_points, invite.friend_reward),
    isOwnLink: userId === invite.sponsor_id,
    accepted: Boolean(mine),
  };
}

/**
 * A friend accepts a link: only someone with no visit credited at the shop yet, who is neither the sponsor nor on
 * the shop's team, and never twice for one shop. Nothing is given now.
 */
export async function acceptInvite(db: Db, person: ReferralPerson, code: string) {
  const invite = await findInvite(db, code);
  if (invite.sponsor_id === person.userId) {
    throw new AppError("CONFLICT", { userMessage: "C'est votre propre lien : partagez-le avec un proche." });
  }
  if (await isStaff(db, invite.shop_id, person.userId)) {
    throw new AppError("FORBIDDEN", {
      message: "staff cannot be sponsored at their shop",
      userMessage: "Vous faites partie de l'équipe de cette boutique : vous ne pouvez pas y être parrainé.",
    });
  }
  const [card] = (
    await db.execute<{ visits: number }>(sql`
      select visits from cards where shop_id = ${invite.shop_id} and user_id = ${person.userId}`)
  ).rows;
  if (card && card.visits > 0) {
    throw new AppError("CONFLICT", {
      userMessage: "Vous êtes déjà client de cette boutique : le parrainage est réservé aux nouveaux clients.",
    });
  }
  const inserted = await db.execute<{ id: string }>(sql`
    insert into referrals (shop_id, sponsor_id, friend_id, device_id, network)
    values (${invite.shop_id}, ${invite.sponsor_id}, ${person.userId}, ${person.deviceId}, ${person.network})
    on conflict (shop_id, friend_id) do nothing returning id`);
  if (!inserted.rows[0]) {
    throw new AppError("CONFLICT", { userMessage: "Vous avez déjà accepté une invitation pour cette boutique." });
  }
  return {
    id: inserted.rows[0].id,
    shop: { name: invite.name, slug: invite.slug },
    friendGift: giftFr(invite.card_mode, invite.friend_points, invite.friend_reward),
  };
}
