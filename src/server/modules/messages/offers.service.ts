import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { redeemRefusalFr } from "../../../domain/loyalty/rewards.ts";
import type { OfferKind } from "../../../domain/messages/offers.ts";
import type { Db } from "../../db/client.ts";
import { at, isStaffSql } from "./automation-sql.ts";

/**
 * The offers automations give (issue 27 item 1, ADR 0046), as their recipient sees and uses them. An offer is a
 * column of the person's occasion (automation_occasions: once per occasion by its unique index), made only for those
 * sent the message — never the held out, never the shop's team. Double points are applied by fidele_scan at the
 * counter (PERSONAL_OFFER_CANDIDATE); a reward is claimed as a gift (source « offer », once per occasion by the
 * redemptions' gift index) and validated at the counter like any other.
 */
export type RunningOffer = {
  id: string;
  cardId: string;
  kind: OfferKind;
  until: string;
  rewardTitle: string | null;
  /** A reward offer's claim, while pending or once validated. */
  redemptionId: string | null;
  status: "pending" | "validated" | null;
};

/** My offers still running at `now`, all shops (the cards and the gifts pages read them). */
export async function runningOffers(db: Db, userId: string, now: Date): Promise<RunningOffer[]> {
  const rows = await db.execute<{
    id: string;
    card_id: string;
    kind: OfferKind;
    until: Date | string;
    reward_title: string | null;
    redemption_id: string | null;
    status: "pending" | "validated" | null;
  }>(sql`
    select o.id, o.card_id, o.offer_kind as kind, o.offer_until as until, r.title as reward_title,
      g.id as redemption_id, g.status
    from automation_occasions o
    left join rewards r on r.id = o.offer_reward_id and r.archived_at is null
    left join lateral (select x.id, x.status from redemptions x where x.card_id = o.card_id and x.source = 'offer'
      and x.source_ref = o.id and x.status in ('pending', 'validated') limit 1) g on true
    where o.user_id = ${userId} and o.offer_kind is not null and o.offer_until > ${at(now)} and o.decided_at <= ${at(now)}
      and (o.offer_kind = 'double_points' or r.id is not null)
    order by o.offer_until`);
  return rows.rows.map((r) => ({
    id: r.id,
    cardId: r.card_id,
    kind: r.kind,
    until: new Date(r.until).toISOString(),
    rewardTitle: r.reward_title,
    redemptionId: r.redemption_id,
    status: r.status,
  }));
}

/**
 * A reward offer's gift and its once-only key, after checking it is mine, on this card, still running, and that I
 * am not on the shop's team (nobody profits from their own power, ADR 0018).
 */
export async function offerGiftTarget(
  db: Db,
  userId: string,
  input: { cardId: string; offerId: string | null },
  now: Date,
): Promise<{ rewardId: string; sourceRef: string }> {
  if (!input.offerId) throw new AppError("CONFLICT", { userMessage: redeemRefusalFr("not_eligible") });
  const [row] = (
    await db.execute<{ reward_id: string; staff: boolean; running: boolean }>(sql`
      select o.offer_reward_id as reward_id, ${isStaffSql(sql`o.user_id`, sql`o.shop_id`)} as staff,
        o.offer_until > ${at(now)} as running
      from automation_occasions o join cards c on c.id = o.card_id
      where o.id = ${input.offerId} and o.card_id = ${input.cardId} and c.user_id = ${userId}
        and o.offer_kind = 'reward' and o.offer_reward_id is not null`)
  ).rows;
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Cette offre est introuvable." });
  if (row.staff) {
    throw new AppError("FORBIDDEN", {
      userMessage: "Vous faites partie de l'équipe de cette boutique : ses offres ne sont pas pour vous.",
    });
  }
  if (!row.running) throw new AppError("CONFLICT", { userMessage: "Cette offre a expiré." });
  return { rewardId: row.reward_id, sourceRef: input.offerId };
}
