import { type SQL, sql } from "drizzle-orm";
import type { AutomationKind } from "../../../domain/messages/automations.ts";
import type { OfferKind } from "../../../domain/messages/offers.ts";

/**
 * What the automations' deciding (automation-run.service.ts) and their page and measures (automations.service.ts)
 * both read: an automation's row, instants as SQL, and how an occasion is named — once, so the forecast's « not yet
 * decided » and the decision itself can never name an absence two ways.
 */
export type AutomationRow = {
  id: string;
  shop_id: string;
  kind: AutomationKind;
  enabled: boolean;
  enabled_at: string | Date | null;
  with_push: boolean;
  with_email: boolean;
  with_sms: boolean;
  days: number | null;
  title: string;
  body: string;
  holdout_percent: number;
  expected_next_week: number | null;
  timezone: string;
  slug: string;
  card_mode: "stamps" | "points";
  points_per_visit: number;
  /** The shop's birthday gift, when it has one that is not archived. */
  gift: string | null;
  offer_kind: OfferKind | null;
  offer_reward_id: string | null;
  offer_days: number;
  /** The offered reward's title, while it is active and not archived (else a reward offer is not made). */
  offer_title: string | null;
};

/** An automation with its shop's settings: `${AUTOMATION_ROW} where …`. */
export const AUTOMATION_ROW = sql`select a.id, a.shop_id, a.kind, a.enabled, a.enabled_at, a.with_push, a.with_email,
    a.with_sms, a.days, a.title, a.body, a.holdout_percent, a.expected_next_week, s.timezone, s.slug, s.card_mode,
    s.points_per_visit, (select r.title from rewards r where r.id = s.birthday_reward_id and r.archived_at is null) as gift,
    a.offer_kind, a.offer_reward_id, a.offer_days,
    (select r.title from rewards r where r.id = a.offer_reward_id and r.shop_id = a.shop_id and r.is_active
      and r.archived_at is null) as offer_title
  from automations a join shops s on s.id = a.shop_id`;

/** Whether the person is on the shop's team: they are never an automation's occasion (nor get its offer). */
export const isStaffSql = (userId: SQL, shopId: SQL) =>
  sql`exists (select 1 from member m where m.organization_id = ${shopId} and m.user_id = ${userId})`;

export const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
export const daysBefore = (now: Date, days: number) => sql`(${at(now)} - make_interval(days => ${days}::int))`;

/** The occasion of a card's present state, for the kinds named by its last visit: « absence:2026-11-25T… ». */
export function visitOccasionSql(kind: Exclude<AutomationKind, "welcome" | "birthday">, lastVisit: SQL): SQL {
  const prefix = { win_back: "absence:", reward_waiting: "reward:", almost_full: "almost:" }[kind];
  // An instant as text, the same whichever driver reads it back.
  return sql`(${prefix} || coalesce(to_char(${lastVisit} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'never'))`;
}
