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
 * RGPD by itself (issue 16, item 9; issue 22, rows 8 and 14): a shopper downloads everything about them at once,
 * and nothing about anyone else; and erases their account, every row and every text that names them.
 *
 * EXPORT_SOURCES lists, table by table, which rows are about one person. tests/api/rgpd.test.ts reads the database
 * catalogue (every foreign key to "user"(id) and every column named user_id) and fails when a table is missing here,
 * so a new table cannot be forgotten. Secrets (password hash, session tokens, 2FA secret, push keys) are left out:
 * they are not "about" the person and would only help whoever gets hold of the archive. Other people's data in a row
 * about them is blanked (`redact`): the IP address of an audit row someone else acted in, the address of someone
 * they invited.
 */
type Row = Record<string, unknown>;
type Me = { id: string; email: string };
type Source =
  | { where: (userId: string, email: string) => SQL; omit?: readonly string[]; redact?: (row: Row, me: Me) => Row }
  | { query: (userId: string) => SQL };

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
  invitation: {
    where: (u, e) => sql`inviter_id = ${u} or lower(email) = lower(${e})`,
    // Someone they invited: that person's address is theirs, not the inviter's.
    redact: (row, me) => (String(row.email).toLowerCase() === me.email.toLowerCase() ? row : { ...row, email: null }),
  },
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
  // What the messages they received said (their deliveries hold only the status): title and text, by any channel.
  messages_received: {
    query: (u) => sql`
      select d.id as delivery_id, d.channel, d.status, d.created_at, d.read_at, s.name as shop, m.kind, m.title,
        m.subject, m.body, m.link_url
      from message_deliveries d join messages m on m.id = d.message_id left join shops s on s.id = m.shop_id
      where d.user_id = ${u} order by d.created_at, d.id`,
  },
  message_preferences: { where: (u) => sql`user_id = ${u}` },
  push_subscriptions: { where: (u) => sql`user_id = ${u}`, omit: ["endpoint", "p256dh", "auth"] },
  session_places: { where: (u) => sql`session_id in (select id from session where user_id = ${u})` },
  audit_log: {
    where: (u, e) =>
      sql`actor_id = ${u} or target = ${u} or lower(target) = lower(${e}) or target in (select id from cards where user_id = ${u})`,
    // The address an owner or an admin acted from is theirs: only the person's own stays; so is the e-mail of
    // someone the person invited.
    redact: (row, me) => {
      const target = String(row.target ?? "").toLowerCase();
      const othersAddress = target.includes("@") && target !== me.email.toLowerCase();
      return { ...row, ip: row.actor_id === me.id ? row.ip : null, target: othersAddress ? null : row.target };
    },
  },
  mail_outbox: { where: (_u, e) => sql`lower("to") = lower(${e})` },
  // The SMS sent to the number on the profile, and what became of marketing e-mail sent to the address.
  sms_outbox: { where: (u) => sql`"to" in (${phonesOf(u)})` },
  sms_owner_phones: { where: (u) => sql`user_id = ${u}`, omit: ["code_hash"] },
  email_events: { where: (_u, e) => sql`email = lower(${e})` },
};

/** Every row about the person, table by table (secret columns left out, other people's data blanked). */
export async function collectPersonalData(db: Db, userId: string): Promise<Record<string, Row[]>> {
  const [me] = (await db.execute<{ email: string }>(sql`select email from "user" where id = ${userId}`)).rows;
  if (!me) throw new AppError("UNAUTHENTICATED");
  const out: Record<string, Row[]> = {};
  for (const [table, source] of Object.entries(EXPORT_SOURCES)) {
    if ("query" in source) {
      out[table] = (await db.execute<Row>(source.query(userId))).rows;
      continue;
    }
    const result = await db.execute<Row>(
      sql`select * from ${sql.identifier(table)} where ${source.where(userId, me.email)} order by 1`,
    );
    const omit = new Set(source.omit ?? []);
    out[table] = result.rows.map((row) => {
      const kept = Object.fromEntries(Object.entries(row).filter(([k]) => !omit.has(k)));
      return source.redact ? source.redact(kept, { id: userId, email: me.email }) : kept;
    });
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
 * so every shop's totals stay true. Mail kept for this address, verifications and throttle keys naming it go too;
 * every text left in any table that names them (address, phone, full name) is blanked.
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
    // What names them, read before the account and profile go: address, phone, full name (erasure.sql).
    const [found] = (await tx.execute<{ needles: string[] }>(sql`select fidele_person_needles(${userId}) as needles`))
      .rows;
    const needles = found?.needles ?? [];
    const naming = [...needles, userId].map((n) => `%${n}%`);
    const anyOf = sql`any(${sql.param(naming)}::text[])`;
    await tx.execute(sql`delete from mail_outbox where lower("to") = lower(${me.email})`);
    // Before the profile goes with the account: the number is read from it.
    await tx.execute(sql`delete from sms_outbox where "to" in (${phonesOf(userId)})`);
    await tx.execute(sql`delete from email_events where email = lower(${me.email})`);
    await tx.execute(sql`delete from invitation where lower(email) = lower(${me.email})`);
    // better-auth's verifications (a sign-in code asked and not used, `sign-in-otp-<address>`, holds the code in
    // clear), the erase code, and throttle keys naming them.
    await tx.execute(sql`delete from verification where identifier ilike ${anyOf} or value ilike ${anyOf}`);
    await tx.execute(sql`delete from auth_throttle where key ilike ${anyOf}`);
    // The append-only logs keep their rows: the person's IP, address, phone and name leave them, through the one
    // function allowed to (SECURITY DEFINER; ADR 0029, 0034). Their bare id stays, naming nobody once the account is gone.
    await tx.execute(sql`select fidele_erase_person_traces(${userId})`);
    await tx.execute(sql`delete from "user" where id = ${userId}`);
    // Every other text that names them, in every table, by construction (erasure.sql): a correction's reason kept
    // in a shop's table, a shop's message, anything a new table will hold.
    await tx.execute(sql`select fidele_erase_person_text(${sql.param(needles)}::text[])`);
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
