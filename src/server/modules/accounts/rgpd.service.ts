import { and, eq, sql, type SQL } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { AppError } from "../../../domain/errors.ts";
import { type CsvValue, toCsv } from "../../../domain/loyalty/csv.ts";
import type { Deps } from "../../lib/context.ts";
import type { Db } from "../../db/client.ts";
import { forgetUser } from "../../lib/sessions.ts";
import { account, consents, member, redemptions } from "../../db/schema/index.ts";
import { closeRedemption } from "../rewards/redemptions.service.ts";
import { recordAudit } from "../../lib/audit.ts";
import { checkEraseCode } from "./erase-code.service.ts";

/**
 * RGPD by itself (issue 16, item 9): a shopper downloads everything about them at once, and erases their account.
 *
 * EXPORT_SOURCES lists, table by table, which rows are about one person. tests/api/rgpd.test.ts reads the database
 * catalogue (every foreign key to "user"(id) and every column named user_id) and fails when a table is missing here,
 * so a new table cannot be forgotten. Secrets (password hash, session tokens, 2FA secret, push keys) are left out:
 * they are not "about" the person and would only help whoever gets hold of the archive.
 */
type Source = { where: (userId: string, email: string) => SQL; omit?: readonly string[] };

/** SQL: the person's numbers — the profile's, and the one they verified (or are verifying) for test SMS (ADR 0032). */
const phonesOf = (u: string) => sql`select phone from profiles where id = ${u}
  union select verified_phone from sms_owner_phones where user_id = ${u}
  union select pending_phone from sms_owner_phones where user_id = ${u}`;

export const EXPORT_SOURCES: Record<string, Source> = {
  user: { where: (u) => sql`id = ${u}` },
  profiles: { where: (u) => sql`id = ${u}` },
  account: {
    where: (u) => sql`user_id = ${u}`,
    omit: ["password", "access_token", "refresh_token", "id_token"],
  },
  session: { where: (u) => sql`user_id = ${u}`, omit: ["token"] },
  two_factor: { where: (u) => sql`user_id = ${u}`, omit: ["secret", "backup_codes"] },
  member: { where: (u) => sql`user_id = ${u}` },
  invitation: { where: (u, e) => sql`inviter_id = ${u} or lower(email) = lower(${e})` },
  personal_codes: { where: (u) => sql`user_id = ${u}` },
  consents: { where: (u) => sql`user_id = ${u}` },
  cards: { where: (u) => sql`user_id = ${u}` },
  ledger_entries: { where: (u) => sql`card_id in (select id from cards where user_id = ${u})` },
  scans: { where: (u) => sql`user_id = ${u}` },
  scan_claims: { where: (u) => sql`user_id = ${u}` },
  redemptions: { where: (u) => sql`user_id = ${u}` },
  customer_notes: { where: (u) => sql`user_id = ${u}` },
  shop_reviews: { where: (u) => sql`user_id = ${u}` },
  contest_entries: { where: (u) => sql`user_id = ${u}` },
  contest_winnings: { where: (u) => sql`user_id = ${u}` },
  messages: { where: (u) => sql`author_id = ${u}` },
  message_deliveries: { where: (u) => sql`user_id = ${u}` },
  message_preferences: { where: (u) => sql`user_id = ${u}` },
  push_subscriptions: { where: (u) => sql`user_id = ${u}`, omit: ["endpoint", "p256dh", "auth"] },
  session_places: { where: (u) => sql`session_id in (select id from session where user_id = ${u})` },
  audit_log: { where: (u, e) => sql`actor_id = ${u} or target = ${u} or lower(target) = lower(${e})` },
  mail_outbox: { where: (_u, e) => sql`lower("to") = lower(${e})` },
  // The SMS sent to the number on the profile, and what became of marketing e-mail sent to the address.
  sms_outbox: { where: (u) => sql`"to" in (${phonesOf(u)})` },
  sms_owner_phones: { where: (u) => sql`user_id = ${u}`, omit: ["code_hash"] },
  email_events: { where: (_u, e) => sql`email = lower(${e})` },
};

type Row = Record<string, unknown>;

/** Every row about the person, table by table (secret columns left out). */
export async function collectPersonalData(db: Db, userId: string): Promise<Record<string, Row[]>> {
  const [me] = (await db.execute<{ email: string }>(sql`select email from "user" where id = ${userId}`)).rows;
  if (!me) throw new AppError("UNAUTHENTICATED");
  const out: Record<string, Row[]> = {};
  for (const [table, source] of Object.entries(EXPORT_SOURCES)) {
    const result = await db.execute<Row>(
      sql`select * from ${sql.identifier(table)} where ${source.where(userId, me.email)} order by 1`,
    );
    const omit = new Set(source.omit ?? []);
    out[table] = result.rows.map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => !omit.has(k))));
  }
  return out;
}

/** One CSV per table, written like every other export (src/domain/loyalty/csv.ts); objects as JSON. */
export function tableCsv(rows: Row[]): string {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const value = (v: unknown): CsvValue =>
    v === null || v === undefined || v instanceof Date || ["string", "number", "boolean"].includes(typeof v)
      ? (v as CsvValue)
      : JSON.stringify(v);
  return toCsv(
    columns,
    rows.map((r) => columns.map((c) => value(r[c]))),
  );
}

/** The archive: donnees.json (everything) and one CSV per table, in one zip. */
export async function exportArchive(db: Db, userId: string, now = new Date()) {
  const data = await collectPersonalData(db, userId);
  const files: Record<string, Uint8Array> = {
    "donnees.json": strToU8(JSON.stringify({ exportedAt: now.toISOString(), tables: data }, null, 2)),
  };
  for (const [table, rows] of Object.entries(data)) files[`csv/${table}.csv`] = strToU8(tableCsv(rows));
  const zip = zipSync(files, { level: 6, mtime: now });
  return { zip, filename: `fidele-mes-donnees-${now.toISOString().slice(0, 10)}.zip` };
}

async function checkPassword(deps: Deps, userId: string, password: string) {
  const [credential] = await deps.db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, "credential")));
  const ctx = await deps.auth.$context;
  const ok = credential?.hash ? await ctx.password.verify({ hash: credential.hash, password }) : false;
  if (!ok) {
    throw new AppError("VALIDATION", {
      userMessage: "Mot de passe incorrect : votre compte n'a pas été supprimé.",
      fields: { password: "Mot de passe incorrect." },
    });
  }
}

/** How the person confirmed: their password, or a code mailed to them (erase-code.service.ts); none for the purge job. */
export type EraseConfirmation = { password: string } | { code: string } | { purge: true };

/**
 * Erases the account at once. Pending redemptions are cancelled through the one close path (their points go back
 * to the card with a `refund` entry: the ledger stays append-only), then the user row is deleted: personal tables
 * cascade, while cards, scans, redemptions and contest rows keep their figures with no owner (ON DELETE SET NULL),
 * so every shop's totals stay true. Mail kept for this address, verifications and throttle keys naming it go too.
 */
export async function eraseAccount(deps: Deps, userId: string, confirmation: EraseConfirmation) {
  const { db } = deps;
  if ("password" in confirmation) await checkPassword(deps, userId, confirmation.password);
  else if ("code" in confirmation) await checkEraseCode(deps, userId, confirmation.code);
  const owned = await db
    .select({ id: member.id })
    .from(member)
    .where(and(eq(member.userId, userId), eq(member.role, "owner")))
    .limit(1);
  if (owned.length > 0) {
    throw new AppError("CONFLICT", {
      userMessage:
        "Vous êtes propriétaire d'une boutique : transmettez-la ou supprimez-la avant de supprimer votre compte.",
    });
  }
  const [me] = (await db.execute<{ email: string }>(sql`select email from "user" where id = ${userId}`)).rows;
  if (!me) return { cancelledRedemptions: 0 };

  const pending = await db
    .select({ id: redemptions.id })
    .from(redemptions)
    .where(and(eq(redemptions.userId, userId), eq(redemptions.status, "pending")));
  let cancelled = 0;
  for (const r of pending) {
    const answer = await closeRedemption(deps.database, r.id, "cancelled", { actorId: userId, userId });
    if (answer.closed) cancelled++;
  }

  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from mail_outbox where lower("to") = lower(${me.email})`);
    // Before the profile goes with the account: the number is read from it.
    await tx.execute(sql`delete from sms_outbox where "to" in (${phonesOf(userId)})`);
    await tx.execute(sql`delete from email_events where email = lower(${me.email})`);
    await tx.execute(sql`delete from invitation where lower(email) = lower(${me.email})`);
    await tx.execute(
      sql`delete from verification where lower(identifier) = lower(${me.email}) or value like ${`%${userId}%`} or identifier like ${`%${userId}%`}`,
    );
    await tx.execute(
      sql`delete from auth_throttle where lower(key) like ${`%${me.email.toLowerCase()}%`} or key like ${`%${userId}%`}`,
    );
    // The audit log keeps its rows (append-only, migration 0017): the person's address and e-mail leave them; their
    // id stays, naming nobody once the account is gone (docs/decisions/0029-audit-log-append-only.md).
    await tx.execute(sql`select set_config('fidele.audit_erasure', 'on', true)`);
    await tx.execute(sql`
      update audit_log set ip = null,
        target = case when lower(target) = lower(${me.email}) then null else target end
      where actor_id = ${userId} or target = ${userId} or lower(target) = lower(${me.email})`);
    await tx.execute(sql`select set_config('fidele.audit_erasure', 'off', true)`);
    await tx.execute(sql`delete from "user" where id = ${userId}`);
    await recordAudit(tx, {
      actorId: "purge" in confirmation ? null : userId,
      action: "purge" in confirmation ? "account.purge" : "account.delete",
      target: userId,
      details: { cancelledRedemptions: cancelled, confirmedBy: Object.keys(confirmation)[0] },
    });
  });
  forgetUser(db, userId);
  return { cancelledRedemptions: cancelled };
}

/** The consent history shown on /profil (newest first). */
export async function consentHistory(db: Db, userId: string) {
  const rows = await db
    .select({ channel: consents.channel, granted: consents.granted, wording: consents.wording, at: consents.createdAt })
    .from(consents)
    .where(eq(consents.userId, userId))
    .orderBy(sql`${consents.createdAt} desc`)
    .limit(200);
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}
