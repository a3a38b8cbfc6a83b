import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { formatLocalDate, formatLocalMonth, plural } from "../../../domain/format.ts";
import { addDays, localParts, zonedToUtc } from "../../../domain/loyalty/time.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";

/**
 * A shop's sending quota (ADR 0032): composer messages and e-mail campaigns a day and a
 * month, counted by the day each leaves (its schedule, else its creation) in the shop's
 * time zone. A cancelled one that never started does not count. Checked where a send is
 * created or scheduled, inside the transaction that inserts it, under a lock on the shop
 * row, so two concurrent creations cannot both take the last place.
 */
export type QuotaKind = "message" | "newsletter";

function quotaOf(env: Env, kind: QuotaKind) {
  return kind === "message"
    ? { perDay: env.MESSAGES_SHOP_PER_DAY, perMonth: env.MESSAGES_SHOP_PER_MONTH }
    : { perDay: env.NEWSLETTERS_SHOP_PER_DAY, perMonth: env.NEWSLETTERS_SHOP_PER_MONTH };
}

const NOUNS: Record<QuotaKind, [string, string]> = {
  message: ["message", "messages"],
  newsletter: ["campagne d'e-mails", "campagnes d'e-mails"],
};

async function countBetween(db: Db, shopId: string, kind: QuotaKind, from: Date, to: Date) {
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from messages m
    where m.shop_id = ${shopId} and m.kind = ${kind}
      and not (m.status = 'cancelled' and m.started_at is null)
      and coalesce(m.scheduled_at, m.created_at) >= ${from.toISOString()}::timestamptz
      and coalesce(m.scheduled_at, m.created_at) < ${to.toISOString()}::timestamptz`);
  return Number(rows.rows[0]?.n ?? 0);
}

const monthStart = (date: string) => `${date.slice(0, 7)}-01`;
const nextMonthStart = (date: string) => {
  const [y, m] = date.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
};

/** What a shop used of its quota today and this month (its time zone), for the composer. */
export async function quotaUse(db: Db, env: Env, shopId: string, kind: QuotaKind, now: Date) {
  const shop = await db.execute<{ timezone: string }>(sql`select timezone from shops where id = ${shopId}`);
  const tz = shop.rows[0]?.timezone ?? "Europe/Paris";
  const day = localParts(now, tz).date;
  return {
    ...quotaOf(env, kind),
    today: await countBetween(db, shopId, kind, zonedToUtc(day, 0, tz), zonedToUtc(addDays(day, 1), 0, tz)),
    month: await countBetween(
      db,
      shopId,
      kind,
      zonedToUtc(monthStart(day), 0, tz),
      zonedToUtc(nextMonthStart(day), 0, tz),
    ),
  };
}

/** Locks the shop row and throws 429 (French, with the first day a send is possible) when `at`'s day or month is full. */
export async function enforceShopQuota(tx: Db, env: Env, shopId: string, kind: QuotaKind, at: Date) {
  const shop = await tx.execute<{ timezone: string }>(sql`select timezone from shops where id = ${shopId} for update`);
  const tz = shop.rows[0]?.timezone ?? "Europe/Paris";
  const { perDay, perMonth } = quotaOf(env, kind);
  const dayOf = (date: string) =>
    countBetween(tx, shopId, kind, zonedToUtc(date, 0, tz), zonedToUtc(addDays(date, 1), 0, tz));
  const monthOf = (date: string) =>
    countBetween(tx, shopId, kind, zonedToUtc(monthStart(date), 0, tz), zonedToUtc(nextMonthStart(date), 0, tz));
  const day = localParts(at, tz).date;
  const [sameDay, sameMonth] = [await dayOf(day), await monthOf(day)];
  if (sameDay < perDay && sameMonth < perMonth) return;
  // The first day from tomorrow with room in its day and its month (a bounded search: two months ahead).
  let next: string | null = null;
  for (let d = addDays(day, 1), i = 0; i < 62; i++) {
    if ((await monthOf(d)) >= perMonth) {
      d = nextMonthStart(d);
      continue;
    }
    if ((await dayOf(d)) < perDay) {
      next = d;
      break;
    }
    d = addDays(d, 1);
  }
  const [one, many] = NOUNS[kind];
  const full =
    sameMonth >= perMonth
      ? `Votre boutique a atteint son quota de ${plural(perMonth, one, many)} pour ${formatLocalMonth(day)}`
      : `Votre boutique a atteint son quota de ${plural(perDay, one, many)} pour le ${formatLocalDate(day)}`;
  const when = next ? ` Prochain envoi possible : le ${formatLocalDate(next)} (programmez-le pour ce jour-là).` : "";
  throw new AppError("RATE_LIMITED", {
    message: `quota ${kind}`,
    userMessage: `${full} (${plural(perDay, one, many)} par jour et ${plural(perMonth, one, many)} par mois au plus sur cette plateforme).${when}`,
  });
}
