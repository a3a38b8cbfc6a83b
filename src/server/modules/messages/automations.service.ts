import { type SQL, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { addDays, localParts } from "../../../domain/loyalty/time.ts";
import {
  AUTOMATION_INFO,
  AUTOMATION_KINDS,
  type AutomationKind,
  DEFAULT_HOLDOUT_PERCENT,
  type AutomationSettings,
  NO_HOLDOUT_WARNING_FR,
  RESULT_PERIODS,
  RETURN_WINDOW_DAYS,
  suggestedWinBackDays,
  WIN_BACK_LATE_DAYS,
} from "../../../domain/messages/automations.ts";
import { broughtBy, compareGroups, verdictDetailFr, verdictFr } from "../../../domain/messages/holdout.ts";
import { mergeValues } from "../../../domain/messages/newsletter-blocks.ts";
import { DEFAULT_OFFER_DAYS } from "../../../domain/messages/offers.ts";
import { describeWindowFr } from "../../../domain/messages/send-window.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { readRhythm } from "../../lib/rhythm.ts";
import { type ShopAccess, scopedShop } from "../../lib/shop-access.ts";
import { reachesAnySql } from "./audience.ts";
import { AUTOMATION_ROW, type AutomationRow, at, daysBefore, isStaffSql, visitOccasionSql } from "./automation-sql.ts";
import { sendWindowOf } from "./channels/sms-sending.ts";

/**
 * /admin/automatisations (issue 27, ADR 0046): a shop's automations as its owner sets them, what they are expected to
 * send in the next 7 days, and their results against the holdout. The decisions are automation-run.service.ts's.
 *
 * Both figures are kept rather than read from the shop's visits at each view: the job automations.measure (every 5
 * minutes) measures what followed each occasion until its return window closes (on its row) and works each
 * automation's next 7 days out again hourly (on the automation), so the page adds up a few thousand rows at most.
 */
const WINDOW = sql`make_interval(days => ${RETURN_WINDOW_DAYS}::int)`;
/** The forecasts are worked out again once this old. */
const FORECAST_MINUTES = 60;
/** At most this many occasions measured per call (the next call takes the rest). */
const MEASURE_BATCH = 5000;

/**
 * Measures the occasions whose return window was still open when last measured (or never measured): credited visits
 * after `since` up to `now` or the window's end, points earned, rewards taken, whether the message reached them.
 * Recomputed whole each time (idempotent), so a visit, a refund or a late delivery is counted right.
 */
async function measureOccasions(db: Db, now: Date): Promise<number> {
  const measured = await db.execute<{ id: string }>(sql`
    with due as (
      select o.id, o.card_id, o.user_id, o.message_id, coalesce(o.since, '-infinity'::timestamptz) as since,
        least(${at(now)}, o.decided_at + ${WINDOW}) as until
      from automation_occasions o
      where o.decided_at > ${daysBefore(now, Math.max(...RESULT_PERIODS) + RETURN_WINDOW_DAYS)}
        and (o.measured_until is null or o.measured_until < least(${at(now)}, o.decided_at + ${WINDOW}))
      order by o.decided_at limit ${MEASURE_BATCH}
    )
    update automation_occasions o set
      visits = (select count(*) from scans s where s.card_id = due.card_id and s.outcome = 'accepted'
        and s.created_at > due.since and s.created_at <= due.until),
      points = (select coalesce(sum(l.delta), 0) from ledger_entries l where l.card_id = due.card_id
        and l.kind in ('scan', 'double_points', 'bonus') and l.created_at > due.since and l.created_at <= due.until),
      rewards = (select count(*) from redemptions r where r.card_id = due.card_id and r.status = 'validated'
        and r.created_at > due.since and r.created_at <= due.until),
      reached = exists (select 1 from message_deliveries d where d.message_id = due.message_id
        and d.user_id = due.user_id and d.status = 'delivered'),
      measured_until = due.until
    from due where o.id = due.id
    returning o.id`);
  return measured.rows.length;
}

/** Month-days (MM-DD) of the next 7 days from `today`. */
const nextWeek = (today: string) => Array.from({ length: 7 }, (_, i) => addDays(today, i).slice(5));

/**
 * About how many messages an automation will send in the next 7 days, holdout taken out: for an absence, the cards
 * that will cross its threshold (or have, and were not decided yet); for a birthday, those falling in the week; for
 * a welcome or a « plus qu'un passage », the pace of the last 28 days.
 */
async function forecast(db: Db, a: AutomationRow, now: Date): Promise<number> {
  const reach = reachesAnySql(sql`c.user_id`, sql`c.shop_id`, {
    push: a.with_push,
    email: a.with_email,
    sms: a.with_sms,
  });
  const days = a.days ?? AUTOMATION_INFO[a.kind].defaultDays ?? 30;
  const notYet = (kind: "win_back" | "reward_waiting") =>
    sql`and not exists (select 1 from automation_occasions o where o.automation_id = ${a.id} and o.user_id = c.user_id
      and o.occasion = ${visitOccasionSql(kind, sql`c.last_scan_at`)})`;
  const cards = (where: SQL) => sql`select count(*)::int as n from cards c join "user" u on u.id = c.user_id
    where c.shop_id = ${a.shop_id} and ${where} and coalesce(u.banned, false) = false and ${reach}
      and not ${isStaffSql(sql`c.user_id`, sql`c.shop_id`)}`;
  const crossing = sql`c.last_scan_at > ${daysBefore(now, days + WIN_BACK_LATE_DAYS)} and c.last_scan_at <= ${daysBefore(now, days - 7)}`;
  const today = localParts(now, a.timezone).date;
  const recent = addDays(today, -28);
  let query: SQL;
  switch (a.kind) {
    case "win_back":
      query = cards(sql`${crossing} ${notYet("win_back")}`);
      break;
    case "reward_waiting":
      query = cards(sql`${crossing} ${notYet("reward_waiting")} and c.balance >= (select min(r.cost) from rewards r
        where r.shop_id = c.shop_id and r.is_active and r.archived_at is null)`);
      break;
    case "birthday":
      query = cards(
        sql`exists (select 1 from profiles p where p.id = c.user_id and to_char(p.birthday, 'MM-DD') in (${sql.join(
          nextWeek(today).map((d) => sql`${d}`),
          sql`, `,
        )}))`,
      );
      break;
    case "welcome":
      query = sql`select (coalesce(sum(new_customers), 0) / 4)::int as n from (
        select new_customers from shop_daily_stats where shop_id = ${a.shop_id} and day > ${recent}::date
        union all select new_customers from shop_daily_deltas where shop_id = ${a.shop_id} and day > ${recent}::date) x`;
      break;
    case "almost_full":
      query = sql`select (count(*) / 4)::int as n from cards c where c.shop_id = ${a.shop_id}
        and c.last_scan_at > ${daysBefore(now, 28)} and exists (select 1 from rewards r where r.shop_id = c.shop_id
          and r.is_active and r.archived_at is null and r.cost > c.balance
          and r.cost - c.balance <= (select case when s.card_mode = 'stamps' then 1 else s.points_per_visit end from shops s where s.id = c.shop_id))`;
      break;
  }
  const n = Number((await db.execute<{ n: number }>(query)).rows[0]?.n ?? 0);
  return Math.round(n * (1 - a.holdout_percent / 100));
}

async function keepForecast(db: Db, a: AutomationRow, now: Date): Promise<number> {
  const n = await forecast(db, a, now);
  await db.execute(sql`update automations set expected_next_week = ${n}, expected_at = ${at(now)} where id = ${a.id}`);
  return n;
}

/**
 * The job automations.measure: the occasions' outcomes (measureOccasions), then the forecasts older than an hour, or
 * made before the automation's last change.
 */
export async function measureAutomations(db: Db, now: Date) {
  const occasions = await measureOccasions(db, now);
  const stale = await db.execute<AutomationRow>(sql`${AUTOMATION_ROW}
    where s.status = 'active' and (a.expected_at is null or a.expected_at < a.updated_at
      or a.expected_at < ${at(now)} - make_interval(mins => ${FORECAST_MINUTES}))`);
  for (const a of stale.rows) await keepForecast(db, a, now);
  return { occasions, forecasts: stale.rows.length };
}

type Figures = { people: number; returned: number; visits: number; points: number; rewards: number; reached: number };

/** Each group's measured figures over the occasions decided in the last `period` days (hand-sent ones left out). */
async function groupFigures(db: Db, automationId: string, period: number, now: Date) {
  const rows = await db.execute<Figures & { holdout: boolean }>(sql`
    select holdout, count(*)::int as people, count(*) filter (where visits > 0)::int as returned,
      coalesce(sum(visits), 0)::int as visits, coalesce(sum(points), 0)::bigint as points,
      coalesce(sum(rewards), 0)::int as rewards, count(*) filter (where reached)::int as reached
    from automation_occasions
    where automation_id = ${automationId} and not manual and decided_at >= ${daysBefore(now, period)}
    group by holdout`);
  const of = (holdout: boolean): Figures => {
    const r = rows.rows.find((x) => x.holdout === holdout);
    return {
      people: Number(r?.people ?? 0),
      returned: Number(r?.returned ?? 0),
      visits: Number(r?.visits ?? 0),
      points: Number(r?.points ?? 0),
      rewards: Number(r?.rewards ?? 0),
      reached: Number(r?.reached ?? 0),
    };
  };
  return { sent: of(false), holdout: of(true) };
}

/** The results of one automation over `period` days, with the verdict in French (domain/messages/holdout.ts). */
async function resultsOf(db: Db, row: AutomationRow, period: number, now: Date) {
  const { sent, holdout } = await groupFigures(db, row.id, period, now);
  const comparison = compareGroups(sent, holdout, row.holdout_percent / 100);
  const per = (key: "visits" | "points" | "rewards") =>
    broughtBy({ people: sent.people, total: sent[key] }, { people: holdout.people, total: holdout[key] });
  return {
    period,
    sent,
    holdout,
    comparison,
    verdict: verdictFr(comparison),
    detail: verdictDetailFr(comparison),
    brought: { visits: per("visits"), points: per("points"), rewards: per("rewards") },
  };
}

/**
 * The automations page: every kind (made with its defaults, off, on the first view, its forecast with it), its
 * expected sends and its results over `period` days.
 */
export async function listAutomations(db: Db, env: Env, access: ShopAccess, period: number, now: Date) {
  const shop = await scopedShop(db, access);
  const rhythm = await readRhythm(db, shop.id, now);
  const suggested = suggestedWinBackDays(rhythm.medianDays);
  await db.execute(sql`
    insert into automations (shop_id, kind, days, title, body, holdout_percent)
    select ${shop.id}, k.kind, k.days, k.title, k.body, ${DEFAULT_HOLDOUT_PERCENT}::int from (values ${sql.join(
      AUTOMATION_KINDS.map((kind) => {
        const info = AUTOMATION_INFO[kind];
        return sql`(${kind}, ${kind === "win_back" ? suggested : info.defaultDays}::int, ${info.title}, ${info.body})`;
      }),
      sql`, `,
    )}) k(kind, days, title, body)
    on conflict (shop_id, kind) do nothing`);
  const rows = (await db.execute<AutomationRow>(sql`${AUTOMATION_ROW} where a.shop_id = ${shop.id}`)).rows;
  // The phone preview's example customer: Camille, one visit from the cheapest reward (merge-values.ts fills the
  // same fields with each recipient's own values).
  const offerChoices = (
    await db.execute<{ id: string; title: string; cost: number }>(sql`
      select id, title, cost from rewards where shop_id = ${shop.id} and is_active and archived_at is null
      order by cost, position limit 100`)
  ).rows.map((r) => ({ id: r.id, title: r.title, cost: Number(r.cost) }));
  const visit = shop.cardMode === "stamps" ? 1 : shop.pointsPerVisit;
  const example = mergeValues({
    firstName: "Camille",
    balance: offerChoices[0] ? Math.max(0, offerChoices[0].cost - visit) : 3 * visit,
    mode: shop.cardMode,
    rewards: offerChoices,
  });
  const automations = [];
  for (const kind of AUTOMATION_KINDS) {
    const row = rows.find((r) => r.kind === kind)!;
    automations.push({
      kind,
      enabled: row.enabled,
      push: row.with_push,
      email: row.with_email,
      sms: row.with_sms,
      days: AUTOMATION_INFO[kind].hasDays ? row.days : null,
      title: row.title,
      body: row.body,
      holdoutPercent: row.holdout_percent,
      offer: row.offer_kind ? { kind: row.offer_kind, rewardId: row.offer_reward_id, days: row.offer_days } : null,
      preview: { values: example, mode: shop.cardMode, rewards: offerChoices.map(({ id, title }) => ({ id, title })) },
      expectedNextWeek: row.expected_next_week ?? (await keepForecast(db, row, now)),
      results: await resultsOf(db, row, period, now),
    });
  }
  const [gift] = (
    await db.execute<{ title: string }>(sql`
      select r.title from rewards r join shops s on s.birthday_reward_id = r.id where s.id = ${shop.id} and r.archived_at is null`)
  ).rows;
  return {
    shopName: shop.name,
    birthdayGift: gift?.title ?? null,
    medianDaysBetweenVisits: rhythm.medianDays === null ? null : Math.round(rhythm.medianDays * 10) / 10,
    suggestedWinBackDays: suggested,
    sendWindow: describeWindowFr(sendWindowOf(env)),
    recipientCapPerDay: env.MESSAGES_RECIPIENT_PER_DAY,
    automations,
  };
}

/**
 * Saves one automation's settings, and works its forecast out again. Turning it on dates it (a welcome is for
 * customers who come after). A holdout of 0 needs the owner's confirmation of the warning.
 */
export async function saveAutomation(
  db: Db,
  access: ShopAccess,
  kind: AutomationKind,
  settings: AutomationSettings,
  now: Date,
) {
  const shop = await scopedShop(db, access);
  if (settings.holdoutPercent === 0 && !settings.noHoldoutConfirmed) {
    throw new AppError("VALIDATION", {
      userMessage: NO_HOLDOUT_WARNING_FR,
      fields: { holdoutPercent: NO_HOLDOUT_WARNING_FR },
    });
  }
  const info = AUTOMATION_INFO[kind];
  const days = info.hasDays ? (settings.days ?? info.defaultDays) : null;
  // The offer: left out keeps the one saved (the on/off switch sends none); null removes it.
  const { offer } = settings;
  const rewardId = offer?.kind === "reward" ? (offer.rewardId ?? null) : null;
  if (rewardId) {
    const own = await db.execute(sql`
      select 1 from rewards where id = ${rewardId} and shop_id = ${shop.id} and is_active and archived_at is null`);
    if (own.rows.length === 0) {
      const message = "Cette récompense n'est pas proposée par votre boutique : choisissez-en une de votre catalogue.";
      throw new AppError("VALIDATION", { userMessage: message, fields: { "offer.rewardId": message } });
    }
  }
  const keepOffer = offer === undefined;
  const saved = await db.execute<{ id: string }>(sql`
    insert into automations (shop_id, kind, enabled, enabled_at, with_push, with_email, with_sms, days, title, body,
      holdout_percent, offer_kind, offer_reward_id, offer_days)
    values (${shop.id}, ${kind}, ${settings.enabled}, case when ${settings.enabled}::boolean then now() end, ${settings.push},
      ${settings.email}, ${settings.sms}, ${days}, ${settings.title}, ${settings.body}, ${settings.holdoutPercent},
      ${offer?.kind ?? null}, ${rewardId}, ${offer?.days ?? DEFAULT_OFFER_DAYS})
    on conflict (shop_id, kind) do update set
      enabled = excluded.enabled,
      enabled_at = case when excluded.enabled and not automations.enabled then now()
        when excluded.enabled then automations.enabled_at end,
      with_push = excluded.with_push, with_email = excluded.with_email, with_sms = excluded.with_sms,
      days = excluded.days, title = excluded.title, body = excluded.body, holdout_percent = excluded.holdout_percent,
      offer_kind = case when ${keepOffer}::boolean then automations.offer_kind else excluded.offer_kind end,
      offer_reward_id = case when ${keepOffer}::boolean then automations.offer_reward_id else excluded.offer_reward_id end,
      offer_days = case when ${keepOffer}::boolean then automations.offer_days else excluded.offer_days end,
      updated_at = now()
    returning id`);
  const [row] = (await db.execute<AutomationRow>(sql`${AUTOMATION_ROW} where a.id = ${saved.rows[0]!.id}`)).rows;
  await keepForecast(db, row!, now);
}
