import { type SQL, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { birthdayWeekYear } from "../../../domain/loyalty/rewards.ts";
import { addDays, localParts } from "../../../domain/loyalty/time.ts";
import {
  AUTOMATION_INFO,
  type AutomationKind,
  automationBody,
  RECENT_VISIT_DAYS,
  WIN_BACK_LATE_DAYS,
} from "../../../domain/messages/automations.ts";
import { offerLineFr } from "../../../domain/messages/offers.ts";
import { isWindowOpen } from "../../../domain/messages/send-window.ts";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../lib/context.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { reachesAnySql } from "./audience.ts";
import { AUTOMATION_ROW, type AutomationRow, at, daysBefore, isStaffSql, visitOccasionSql } from "./automation-sql.ts";
import { sendWindowOf } from "./channels/sms-sending.ts";
import { insertMessage, launchMessage } from "./compose.service.ts";
import { freezeMergeValues } from "./merge-values.ts";

/**
 * Automations decide (issue 27, ADR 0046): every few minutes the job automations.run calls `runAutomations` with the
 * clock (`now`, which tests move). For each enabled automation of an active shop, in its own transaction holding its
 * row (another process running at the same moment skips it), the cards whose occasion has come are recorded in
 * `automation_occasions` — the unique (automation, person, occasion) index makes each occasion once, whatever
 * processes race or restart — each split at random into the holdout (sent nothing) and the rest, who become the
 * audience of one message of kind « automation » created by the composer's pipeline (insertMessage, launchMessage)
 * and sent by the one engine: consent read again when the audience freezes and when each copy leaves, the person's
 * cap across channels, the SMS budget and send window. Only people who accept at least one of its channels from the
 * shop are considered at all, so both groups are people the message could reach.
 *
 * Decisions are made only while the operator's marketing send window is open in the shop's time zone (no
 * « vous nous manquez » at 3 a.m. or on a Sunday).
 */
/** At most this many occasions per automation and run: the next run takes the rest. */
const BATCH = 2000;

/** The cheapest reward a card could take, and the one a visit's worth away. */
const activeRewards = sql`select r.cost from rewards r where r.shop_id = c.shop_id and r.is_active and r.archived_at is null`;

/** Month-days (MM-DD) whose birthday week holds `today`, each with the year it counts for (rewards.ts owns the week). */
function birthdaysOn(today: string): { mmdd: string; year: number }[] {
  const days = new Set<string>(["02-29"]);
  for (let d = -7; d <= 7; d++) days.add(addDays(today, d).slice(5));
  return [...days].flatMap((mmdd) => {
    const year = birthdayWeekYear(`2000-${mmdd}`, today);
    return year === null ? [] : [{ mmdd, year }];
  });
}

/** `select user_id, card_id, occasion, since` of the cards whose occasion has come, for one automation. */
function candidatesSql(a: AutomationRow, now: Date): SQL | null {
  const base = sql`from cards c join "user" u on u.id = c.user_id`;
  // The shop's own team is never an occasion: no « vous nous manquez » to the barista, and no offer from their own
  // shop (nobody profits from their own power, ADR 0018).
  const common = sql`c.shop_id = ${a.shop_id} and coalesce(u.banned, false) = false
    and not ${isStaffSql(sql`c.user_id`, sql`c.shop_id`)}
    and ${reachesAnySql(sql`c.user_id`, sql`c.shop_id`, { push: a.with_push, email: a.with_email, sms: a.with_sms })}`;
  const days = a.days ?? AUTOMATION_INFO[a.kind].defaultDays ?? 30;
  const absence = sql`c.last_scan_at <= ${daysBefore(now, days)} and c.last_scan_at > ${daysBefore(now, days + WIN_BACK_LATE_DAYS)}`;
  const recentVisit = sql`c.last_scan_at > ${daysBefore(now, RECENT_VISIT_DAYS)} and c.last_scan_at <= ${at(now)}`;
  const select = (occasion: SQL) =>
    sql`select c.user_id, c.id as card_id, ${occasion} as occasion, c.last_scan_at as since`;
  switch (a.kind) {
    case "welcome":
      if (!a.enabled_at) return null;
      return sql`${select(sql`'welcome'`)} ${base} where ${common} and c.visits >= 1
        and c.created_at >= ${new Date(a.enabled_at).toISOString()}::timestamptz
        and c.created_at > ${daysBefore(now, RECENT_VISIT_DAYS)} and c.created_at <= ${at(now)}`;
    case "win_back":
      return sql`${select(visitOccasionSql("win_back", sql`c.last_scan_at`))} ${base} where ${common} and ${absence}`;
    case "reward_waiting":
      return sql`${select(visitOccasionSql("reward_waiting", sql`c.last_scan_at`))} ${base} where ${common} and ${absence}
        and c.balance >= (select min(x.cost) from (${activeRewards}) x)`;
    case "almost_full": {
      const visit = a.card_mode === "stamps" ? 1 : a.points_per_visit;
      return sql`${select(visitOccasionSql("almost_full", sql`c.last_scan_at`))} ${base} where ${common} and ${recentVisit}
        and exists (select 1 from (${activeRewards}) x where x.cost > c.balance and x.cost - c.balance <= ${visit}::int)`;
    }
    case "birthday": {
      const list = birthdaysOn(localParts(now, a.timezone).date);
      if (list.length === 0) return null;
      const values = sql.join(
        list.map((b) => sql`(${b.mmdd}, ${b.year}::int)`),
        sql`, `,
      );
      return sql`select c.user_id, c.id as card_id, 'birthday:' || b.year as occasion, c.last_scan_at as since
        ${base} join profiles p on p.id = c.user_id join (values ${values}) b(mmdd, year) on to_char(p.birthday, 'MM-DD') = b.mmdd
        where ${common}`;
    }
  }
}

/** Held out or not, at random but reproducibly: a hash of the automation, the person and the occasion. */
const heldOutSql = (a: AutomationRow) =>
  sql`(('x' || substr(md5(${a.id} || ':' || x.user_id || ':' || x.occasion), 1, 8))::bit(32)::bigint % 100) < ${a.holdout_percent}::int`;

/** The offer an automation attaches now: none, or a reward offer whose reward is gone (then none is promised). */
function offerOf(a: AutomationRow) {
  if (!a.offer_kind || (a.offer_kind === "reward" && !a.offer_title)) return null;
  return { kind: a.offer_kind, rewardId: a.offer_kind === "reward" ? a.offer_reward_id : null, days: a.offer_days };
}

/** When an offer made at `now` ends. */
const offerUntil = (a: AutomationRow, now: Date) => new Date(now.getTime() + a.offer_days * 86_400_000);

/**
 * The occasion columns of the offer for one row: the offer when it has one and the row is not held out (`holdout`:
 * its SQL), else nulls. The row's own uniqueness (automation, person, occasion) makes it once per occasion.
 */
function offerColumnsSql(a: AutomationRow, holdout: SQL, now: Date) {
  const offer = offerOf(a);
  if (!offer) return sql`null::text, null::text, null::timestamptz`;
  return sql`case when ${holdout} then null else ${offer.kind}::text end,
    case when ${holdout} then null else ${offer.rewardId}::text end,
    case when ${holdout} then null else ${at(offerUntil(a, now))} end`;
}

/**
 * The message an automation's occasions of this run go out in (after their rows exist, in the same transaction).
 * Its title and text keep their merge fields: each channel fills them with the recipient's values (merge-values.ts).
 */
function messageOf(a: AutomationRow, now: Date) {
  const offer = offerOf(a);
  const offerLine = offer
    ? offerLineFr({ ...offer, rewardTitle: a.offer_title }, a.card_mode, {
        at: offerUntil(a, now),
        timeZone: a.timezone,
      })
    : null;
  return {
    shopId: a.shop_id,
    authorId: null,
    audience: "occasions" as const,
    segment: null,
    kind: "automation" as const,
    title: a.title,
    body: automationBody(a.kind, a.body, { gift: a.gift, offer: offerLine }),
    newsletter: { subject: null, preheader: null, blocks: null },
    imageUrl: null,
    linkUrl: `/shop/${a.slug}`,
    channels: { push: a.with_push, email: a.with_email, sms: a.with_sms },
    isPromotional: true,
    scheduledAt: new Date(),
  };
}

type RunResult = { sent: number; heldOut: number; messageId: string | null };

/** One automation's run: its new occasions recorded and split, the message of the rest created. Null: skipped. */
async function decide(deps: Pick<Deps, "db" | "env">, automationId: string, now: Date): Promise<RunResult | null> {
  return deps.db.transaction(async (tx) => {
    const [a] = (
      await tx.execute<AutomationRow>(sql`${AUTOMATION_ROW}
        where a.id = ${automationId} and a.enabled and s.status = 'active' for update of a skip locked`)
    ).rows;
    if (!a) return null;
    if (!isWindowOpen(now, { ...sendWindowOf(deps.env), timeZone: a.timezone })) return null;
    const candidates = candidatesSql(a, now);
    if (!candidates) return { sent: 0, heldOut: 0, messageId: null };
    const inserted = await tx.execute<{ id: string; holdout: boolean }>(sql`
      insert into automation_occasions (automation_id, shop_id, user_id, card_id, occasion, since, decided_at, holdout,
        offer_kind, offer_reward_id, offer_until)
      select ${a.id}, ${a.shop_id}, y.user_id, y.card_id, y.occasion, y.since, ${at(now)}, y.holdout,
        ${offerColumnsSql(a, sql`y.holdout`, now)}
      from (select x.*, ${heldOutSql(a)} as holdout from (${candidates}) x
        where not exists (select 1 from automation_occasions e
          where e.automation_id = ${a.id} and e.user_id = x.user_id and e.occasion = x.occasion)
        limit ${BATCH}) y
      on conflict (automation_id, user_id, occasion) do nothing
      returning id, holdout`);
    const sent = inserted.rows.filter((r) => !r.holdout).map((r) => r.id);
    const heldOut = inserted.rows.length - sent.length;
    if (sent.length === 0) return { sent: 0, heldOut, messageId: null };
    await freezeMergeValues(tx, a.shop_id, sent);
    const messageId = await insertMessage(tx, messageOf(a, now));
    await tx.execute(sql`update automation_occasions set message_id = ${messageId}
      where id in (${sql.join(
        sent.map((id) => sql`${id}`),
        sql`, `,
      )})`);
    return { sent: sent.length, heldOut, messageId };
  });
}

/**
 * Runs every enabled automation once at `now`. Safe to call from several processes at once (each automation is
 * decided by one, its occasions are unique) and again after a crash (what was decided is kept; a message created
 * but not started is found by the messages.sweep job).
 */
export async function runAutomations(deps: Pick<Deps, "db" | "env" | "jobs" | "logger">, now: Date) {
  const due = await deps.db.execute<{ id: string }>(sql`
    select a.id from automations a join shops s on s.id = a.shop_id
    where a.enabled and s.status = 'active' order by a.id`);
  const total = { automations: 0, sent: 0, heldOut: 0, messages: 0 };
  for (const { id } of due.rows) {
    const result = await decide(deps, id, now);
    if (!result) continue;
    total.automations++;
    total.sent += result.sent;
    total.heldOut += result.heldOut;
    if (result.messageId) {
      total.messages++;
      // After the commit, outside any transaction (PGlite is one connection).
      await launchMessage(deps, result.messageId, null);
    }
  }
  return total;
}

/** The shop's automation of a kind, made with its defaults (off) when the owner never saved it. */
async function ensureAutomation(db: Db, shopId: string, kind: AutomationKind): Promise<string> {
  const info = AUTOMATION_INFO[kind];
  const rows = await db.execute<{ id: string }>(sql`
    with made as (
      insert into automations (shop_id, kind, days, title, body)
      values (${shopId}, ${kind}, ${info.defaultDays}, ${info.title}, ${info.body})
      on conflict (shop_id, kind) do nothing returning id)
    select id from made union all select id from automations where shop_id = ${shopId} and kind = ${kind}`);
  return rows.rows[0]!.id;
}

/**
 * The at-risk list's one-tap win-back: the shop's win-back message to one customer now, as an occasion of their
 * current absence (so the automation will not send it again for that absence), never held out and left out of the
 * results. Refused when they already had it for this absence, or accept none of its channels.
 */
export async function sendWinBackNow(
  deps: Pick<Deps, "db" | "jobs" | "logger">,
  access: ShopAccess,
  cardId: string,
  now: Date,
) {
  const automationId = await ensureAutomation(deps.db, access.shopId, "win_back");
  const messageId = await deps.db.transaction(async (tx) => {
    const [a] = (await tx.execute<AutomationRow>(sql`${AUTOMATION_ROW} where a.id = ${automationId} for update of a`))
      .rows;
    const [card] = (
      await tx.execute<{ user_id: string | null; reachable: boolean; staff: boolean }>(sql`
        select c.user_id, ${isStaffSql(sql`c.user_id`, sql`c.shop_id`)} as staff, ${reachesAnySql(sql`c.user_id`, sql`c.shop_id`, { push: a!.with_push, email: a!.with_email, sms: a!.with_sms })} as reachable
        from cards c where c.id = ${cardId} and c.shop_id = ${shopScope(access)} and c.user_id is not null`)
    ).rows;
    if (!card?.user_id) throw new AppError("NOT_FOUND", { userMessage: "Ce client est introuvable." });
    if (card.staff) {
      throw new AppError("CONFLICT", {
        userMessage: "Cette personne fait partie de votre équipe : les messages automatiques ne lui sont pas envoyés.",
      });
    }
    if (!card.reachable) {
      throw new AppError("CONFLICT", {
        userMessage: "Ce client n'accepte aucun des canaux de ce message : il ne peut pas le recevoir.",
      });
    }
    const inserted = await tx.execute<{ id: string }>(sql`
      insert into automation_occasions (automation_id, shop_id, user_id, card_id, occasion, since, decided_at, holdout, manual,
        offer_kind, offer_reward_id, offer_until)
      select ${automationId}, c.shop_id, c.user_id, c.id, ${visitOccasionSql("win_back", sql`c.last_scan_at`)},
        c.last_scan_at,
        ${at(now)}, false, true, ${offerColumnsSql(a!, sql`false`, now)}
      from cards c where c.id = ${cardId}
      on conflict (automation_id, user_id, occasion) do nothing returning id`);
    const occasion = inserted.rows[0];
    if (!occasion) {
      throw new AppError("CONFLICT", {
        userMessage: "Ce client a déjà reçu « Vous nous manquez » pour cette absence.",
      });
    }
    await freezeMergeValues(tx, a!.shop_id, [occasion.id]);
    const id = await insertMessage(tx, { ...messageOf(a!, now), authorId: access.userId });
    await tx.execute(sql`update automation_occasions set message_id = ${id} where id = ${occasion.id}`);
    return id;
  });
  await launchMessage(deps, messageId, null);
  return messageId;
}
