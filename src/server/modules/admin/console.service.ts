import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import type { Auth, SessionUser } from "../../auth.ts";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../lib/context.ts";
import { healthFigures } from "../../lib/metrics.ts";
import { AUDIT_ACTIONS, type AuditAction, recordAudit } from "../../lib/audit.ts";
import { CSV_BATCH, cappedTotal, csvStream, LIST_COUNT_CAP, type ListKeyset } from "../../lib/list-page.ts";
import { forgetSession, forgetUser } from "../../lib/session-cache.ts";
import { flushHeartbeats } from "../../lib/sessions.ts";
import { networkOf, placeLabel } from "../../../domain/place.ts";
import { confirmCallback } from "../accounts/accounts.service.ts";

/** The back-office console: the audit log (/admin/logs), who is online (/admin/connected), sessions (/admin/sessions). */

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

export const auditQuerySchema = z.object({
  action: z
    .enum(Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]], { message: "Action inconnue." })
    .optional(),
  shopId: z.string().trim().max(100).optional(),
  /** The actor's e-mail or name, in part. */
  who: z.string().trim().max(120).optional(),
  from: z.iso.date({ message: "Date de début invalide." }).optional(),
  to: z.iso.date({ message: "Date de fin invalide." }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
type AuditQuery = z.output<typeof auditQuerySchema>;

function auditFilter(q: AuditQuery) {
  const who = q.who ? `%${q.who.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return sql`(${q.action ?? null}::text is null or a.action = ${q.action ?? null}::text)
      and (${q.shopId ?? null}::text is null or a.shop_id = ${q.shopId ?? null}::text)
      and (${who}::text is null or exists (select 1 from "user" w where w.id = a.actor_id
             and lower(coalesce(w.email, '') || ' ' || coalesce(w.name, '')) like ${who}::text))
      and (${q.from ?? null}::date is null or a.created_at >= ${q.from ?? null}::date)
      and (${q.to ?? null}::date is null or a.created_at < ${q.to ?? null}::date + 1)`;
}

type AuditRow = {
  id: string;
  action: AuditAction;
  actor_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  shop_id: string | null;
  shop_name: string | null;
  target: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  created_at: Date | string;
  /** The keyset: time as text (microseconds kept). */
  k: string;
};

/** Newest first: the page's entries first (index on created_at), then the names; `after` continues (exports). */
async function queryAudit(db: Db, q: AuditQuery, page: { limit: number; offset: number; after?: ListKeyset }) {
  const after = page.after
    ? sql`and (a.created_at, a.id) < (${page.after.k}::timestamptz, ${page.after.id}::text)`
    : sql``;
  const result = await db.execute<AuditRow>(sql`
    with page as (
      select a.id, a.action, a.actor_id, a.shop_id, a.target, a.details, a.ip, a.created_at
      from audit_log a
      where ${auditFilter(q)} ${after}
      order by a.created_at desc, a.id desc
      limit ${page.limit} offset ${page.after ? 0 : page.offset}
    )
    select page.*, page.created_at::text as k, u.email as actor_email, u.name as actor_name, s.name as shop_name
    from page
    left join "user" u on u.id = page.actor_id
    left join shops s on s.id = page.shop_id
    order by page.created_at desc, page.id desc`);
  return result.rows;
}

/** /admin/logs: a page of the audit log; `total` counted apart, capped as the back-office lists' (LIST_COUNT_CAP). */
export async function listAudit(db: Db, q: AuditQuery) {
  const [rows, count] = await Promise.all([
    queryAudit(db, q, q),
    db.execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from audit_log a where ${auditFilter(q)} limit ${LIST_COUNT_CAP + 1}) x`),
  ]);
  return {
    entries: rows.map((r) => ({
      id: r.id,
      action: r.action,
      actionLabel: AUDIT_ACTIONS[r.action] ?? r.action,
      actor: r.actor_id ? { id: r.actor_id, email: r.actor_email, name: r.actor_name } : null,
      shop: r.shop_id ? { id: r.shop_id, name: r.shop_name } : null,
      target: r.target,
      details: r.details,
      ip: r.ip,
      createdAt: iso(r.created_at)!,
    })),
    ...cappedTotal(Number(count.rows[0]?.n ?? 0)),
    actions: Object.entries(AUDIT_ACTIONS).map(([value, label]) => ({ value, label })),
  };
}

/** /admin/logs.csv: every entry that matches (no cap), streamed batch after batch as the shops' exports. */
export function auditCsv(db: Db, q: AuditQuery): ReadableStream<Uint8Array> {
  return csvStream(
    ["Date (UTC)", "Action", "Qui", "Boutique", "Cible", "Détails", "Adresse IP"],
    async (after) => {
      const rows = await queryAudit(db, q, { limit: CSV_BATCH, offset: 0, after });
      const last = rows.at(-1);
      return { rows, last: last ? { k: last.k, id: last.id } : null };
    },
    (r) => [
      new Date(r.created_at).toISOString(),
      AUDIT_ACTIONS[r.action] ?? r.action,
      r.actor_email ?? (r.actor_id ? "Compte supprimé" : "Système"),
      r.shop_name ?? "",
      r.target ?? "",
      r.details ? JSON.stringify(r.details) : "",
      r.ip ?? "",
    ],
  );
}

/** How recent a heartbeat must be to count as online (SPEC §7.1). */
const ONLINE_WITHIN_MINUTES = 2;

/**
 * Who is online now. The platform admin: everyone, with the shops they belong to (as staff or customer).
 * Anyone else: the team and customers of the shops they own or manage (none: an empty list).
 */
export async function listConnected(db: Db, viewer: SessionUser) {
  await flushHeartbeats(db); // this process's marks of the last second (lib/sessions.ts)
  const isAdmin = viewer.role === "admin";
  if (!isAdmin) {
    const manages = await db.execute(
      sql`select 1 from member m where m.user_id = ${viewer.id} and m.role in ('owner', 'admin') limit 1`,
    );
    if (manages.rows.length === 0) {
      throw new AppError("FORBIDDEN", { userMessage: "Cette page est réservée aux responsables de boutique." });
    }
  }
  const result = await db.execute<{
    user_id: string;
    name: string | null;
    email: string;
    last_seen: Date | string;
    shop_id: string | null;
    shop_name: string | null;
    relation: "team" | "customer" | null;
  }>(sql`
    with my_shops as (
      select m.organization_id as shop_id from member m where m.user_id = ${viewer.id} and m.role in ('owner', 'admin')
    ),
    links as (
      select m.user_id, m.organization_id as shop_id, 'team' as relation from member m
      union all
      select c.user_id, c.shop_id, 'customer' from cards c where c.user_id is not null
    )
    select u.id as user_id, u.name, u.email, p.last_seen, l.shop_id, s.name as shop_name, l.relation
    from profiles p
    join "user" u on u.id = p.id
    left join links l on l.user_id = u.id
    left join shops s on s.id = l.shop_id
    where p.last_seen > now() - make_interval(mins => ${ONLINE_WITHIN_MINUTES})
      and (${isAdmin} or l.shop_id in (select shop_id from my_shops))
    order by s.name nulls last, p.last_seen desc
    limit 500`);
  return {
    withinMinutes: ONLINE_WITHIN_MINUTES,
    people: result.rows.map((r) => ({
      userId: r.user_id,
      name: r.name,
      email: r.email,
      lastSeenAt: iso(r.last_seen)!,
      shop: r.shop_id ? { id: r.shop_id, name: r.shop_name } : null,
      relation: r.relation,
    })),
  };
}

/**
 * The sessions a viewer may see and end: their own; an owner's also their whole team's; a manager's (role admin)
 * only the team members below them (role member), never the owner's or another manager's (issue 22, row 15); the
 * platform admin's every session. The same condition scopes the list and guards a revocation.
 */
const visibleSessions = (viewer: SessionUser) => sql`(
  s.user_id = ${viewer.id}
  or ${viewer.role === "admin"}
  or s.user_id in (
    select t.user_id from member t
    join member mine on mine.organization_id = t.organization_id
    where mine.user_id = ${viewer.id}
      and (mine.role = 'owner' or (mine.role = 'admin' and t.role = 'member'))
  )
)`;

export async function listSessions(db: Db, viewer: SessionUser, currentSessionId: string | null) {
  await flushHeartbeats(db);
  const result = await db.execute<{
    id: string;
    user_id: string;
    name: string | null;
    email: string;
    user_agent: string | null;
    ip_address: string | null;
    created_at: Date | string;
    last_seen: Date | string | null;
    time_zone: string | null;
    network: string | null;
  }>(sql`
    select s.id, s.user_id, u.name, u.email, s.user_agent, s.ip_address, s.created_at, p.last_seen,
      sp.time_zone, sp.network
    from session s
    join "user" u on u.id = s.user_id
    left join profiles p on p.id = s.user_id
    left join session_places sp on sp.session_id = s.id
    where s.expires_at > now() and ${visibleSessions(viewer)}
    order by (s.user_id = ${viewer.id}) desc, coalesce(p.last_seen, s.created_at) desc
    limit 500`);
  return {
    sessions: result.rows.map((r) => ({
      id: r.id,
      user: { id: r.user_id, name: r.name, email: r.email },
      userAgent: r.user_agent,
      // Never the address itself: its network, and the place named by the browser's time zone (ADR 0028).
      place: placeLabel(r.time_zone, r.network ?? networkOf(r.ip_address)),
      createdAt: iso(r.created_at)!,
      lastActiveAt: iso(r.last_seen ?? r.created_at)!,
      isCurrent: r.id === currentSessionId,
      isMine: r.user_id === viewer.id,
    })),
  };
}

/** Ends one session the viewer may see; anything else is the same 404 as an unknown id. */
export async function revokeSession(db: Db, viewer: SessionUser, sessionId: string, ip: string | null) {
  const result = await db.execute<{ token: string; user_id: string }>(sql`
    delete from session s where s.id = ${sessionId} and ${visibleSessions(viewer)} returning s.token, s.user_id`);
  const row = result.rows[0];
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Session introuvable." });
  forgetSession(db, row.token);
  if (row.user_id !== viewer.id)
    await recordAudit(db, { actorId: viewer.id, action: "session.revoke", target: row.user_id, ip });
}

/**
 * The platform at a glance (the platform admin's /admin): activity over 30 days in one query, and health — the
 * figures GET /metrics serves (lib/metrics.ts: database, event loop, job queues, sends, mail outbox).
 */
export async function platformOverview({ db, database, metrics }: Pick<Deps, "db" | "database" | "metrics">) {
  const counts = await db.execute<{
    shops: number;
    suspended_shops: number;
    shoppers: number;
    new_shoppers: number;
    scans: number;
    redemptions: number;
    messages: number;
  }>(sql`
    select
      (select count(*)::int from shops where deleted_at is null) as shops,
      (select count(*)::int from shops where status = 'suspended' and deleted_at is null) as suspended_shops,
      (select count(*)::int from "user" where role is distinct from 'admin') as shoppers,
      (select count(*)::int from "user" where role is distinct from 'admin' and created_at > now() - interval '30 days') as new_shoppers,
      (select count(*)::int from scans where outcome = 'accepted' and created_at > now() - interval '30 days') as scans, -- scans_accepted_created_idx
      (select count(*)::int from redemptions where status = 'validated' and created_at > now() - interval '30 days') as redemptions,
      (select count(*)::int from messages where created_at > now() - interval '30 days') as messages`);
  const c = counts.rows[0]!;
  // One pass per table over the 30 days (scans by scans_accepted_created_idx), grouped by UTC day.
  const series = await db.execute<{
    day: string;
    scans: number;
    signups: number;
    redemptions: number;
    messages: number;
  }>(sql`
    with d as (
      select day::date as day
      from generate_series(date_trunc('day', now() at time zone 'UTC') - interval '29 days', date_trunc('day', now() at time zone 'UTC'), interval '1 day') as g(day)
    ), since as (
      select (select min(day) from d)::timestamp at time zone 'UTC' as t
    ), x as (
      select (created_at at time zone 'UTC')::date as day, count(*)::int as n from scans
      where outcome = 'accepted' and created_at >= (select t from since) group by 1
    ), u as (
      select created_at::date as day, count(*)::int as n from "user"
      where role is distinct from 'admin' and created_at >= (select min(day) from d)::timestamp group by 1
    ), r as (
      select (created_at at time zone 'UTC')::date as day, count(*)::int as n from redemptions
      where status = 'validated' and created_at >= (select t from since) group by 1
    ), m as (
      select (created_at at time zone 'UTC')::date as day, count(*)::int as n from messages
      where created_at >= (select t from since) group by 1
    )
    select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(x.n, 0) as scans, coalesce(u.n, 0) as signups,
      coalesce(r.n, 0) as redemptions, coalesce(m.n, 0) as messages
    from d left join x on x.day = d.day left join u on u.day = d.day left join r on r.day = d.day left join m on m.day = d.day
    order by d.day`);
  return {
    days: 30,
    /** Per UTC day, oldest first: accepted scans, new accounts, rewards handed over, messages. */
    daily: series.rows.map((r) => ({
      date: r.day,
      scans: r.scans,
      signups: r.signups,
      redemptions: r.redemptions,
      messages: r.messages,
    })),
    activity: {
      shops: c.shops,
      suspendedShops: c.suspended_shops,
      shoppers: c.shoppers,
      newShoppers: c.new_shoppers,
      scans: c.scans,
      redemptions: c.redemptions,
      messages: c.messages,
    },
    health: {
      database: database.kind === "pglite" ? "PGlite (fichier local)" : "PostgreSQL",
      ...(await healthFigures(metrics)),
    },
  };
}

export const usersQuerySchema = z.object({ q: z.string().trim().max(120).optional() });
export const banSchema = z.object({
  reason: z
    .string({ error: "Indiquez le motif." })
    .trim()
    .min(3, "Indiquez le motif (3 caractères au moins).")
    .max(300, "Le motif tient en 300 caractères."),
});

/** The platform admin's search of accounts (e-mail or name), newest first. */
export async function listUsers(db: Db, q: string | undefined) {
  const term = q ? `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const result = await db.execute<{
    id: string;
    email: string;
    name: string | null;
    role: string | null;
    banned: boolean | null;
    ban_reason: string | null;
    email_verified: boolean;
    created_at: Date | string;
    sessions: number;
  }>(sql`
    select u.id, u.email, u.name, u.role, u.banned, u.ban_reason, u.email_verified, u.created_at,
           (select count(*)::int from session s where s.user_id = u.id and s.expires_at > now()) as sessions
    from "user" u
    where (${term}::text is null or lower(u.email || ' ' || coalesce(u.name, '')) like ${term}::text)
    order by u.created_at desc, u.id
    limit 50`);
  return {
    users: result.rows.map((r) => ({
      id: r.id,
      email: r.email,
      name: r.name,
      isAdmin: r.role === "admin",
      banned: Boolean(r.banned),
      banReason: r.ban_reason,
      emailVerified: r.email_verified,
      createdAt: iso(r.created_at)!,
      sessions: r.sessions,
    })),
  };
}

type UserAction = "ban" | "unban" | "signout";

/**
 * Ban, unban, or sign out everywhere, through better-auth's admin plugin (its rules, its session clean-up).
 * Another platform admin (or oneself) is not a target here.
 */
export async function actOnUser(
  deps: { db: Db; auth: Auth },
  admin: SessionUser,
  headers: Headers,
  userId: string,
  action: UserAction,
  reason: string | null,
  ip: string | null,
) {
  const found = await deps.db.execute<{ role: string | null }>(sql`select role from "user" where id = ${userId}`);
  const target = found.rows[0];
  if (!target) throw new AppError("NOT_FOUND", { userMessage: "Compte introuvable." });
  if (target.role === "admin" || userId === admin.id) {
    throw new AppError("FORBIDDEN", {
      userMessage: "Un compte administrateur ne peut pas être banni ni déconnecté d'ici.",
    });
  }
  try {
    if (action === "ban") await deps.auth.api.banUser({ body: { userId, banReason: reason ?? undefined }, headers });
    else if (action === "unban") await deps.auth.api.unbanUser({ body: { userId }, headers });
    else await deps.auth.api.revokeUserSessions({ body: { userId }, headers });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("VALIDATION", {
      message: `better-auth: ${String(error)}`,
      userMessage: "Cette action n'a pas pu aboutir.",
    });
  }
  forgetUser(deps.db, userId);
  const audit = { ban: "user.ban", unban: "user.unban", signout: "user.signout" } as const;
  await recordAudit(deps.db, {
    actorId: admin.id,
    action: audit[action],
    target: userId,
    details: reason ? { reason } : null,
    ip,
  });
}

/** A new confirmation link for an account whose address is not confirmed yet (it lands in the outbox without SMTP). */
export async function resendConfirmation(
  deps: { db: Db; auth: Auth },
  admin: SessionUser,
  userId: string,
  ip: string | null,
) {
  const found = await deps.db.execute<{ email: string; email_verified: boolean }>(
    sql`select email, email_verified from "user" where id = ${userId}`,
  );
  const target = found.rows[0];
  if (!target) throw new AppError("NOT_FOUND", { userMessage: "Compte introuvable." });
  if (target.email_verified) throw new AppError("CONFLICT", { userMessage: "Cette adresse est déjà confirmée." });
  await deps.auth.api.sendVerificationEmail({ body: { email: target.email, callbackURL: confirmCallback(undefined) } });
  await recordAudit(deps.db, { actorId: admin.id, action: "user.resend", target: userId, ip });
}
