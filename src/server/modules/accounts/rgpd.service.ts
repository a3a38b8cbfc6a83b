import { and, eq, sql } from "drizzle-orm";
import { zipSync } from "fflate";
import { AppError } from "../../../domain/errors.ts";
import { type CsvValue, toCsv } from "../../../domain/loyalty/csv.ts";
import type { Deps } from "../../lib/context.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { forgetUser } from "../../lib/session-cache.ts";
import { account, consents, member, redemptions } from "../../db/schema/index.ts";
import { closeRedemption } from "../rewards/redemptions.service.ts";
import { recordAudit } from "../../lib/audit.ts";
import { checkEraseCode } from "./erase-code.service.ts";
import { archiveFiles } from "./rgpd-archive.ts";
import type { PersonalData } from "./rgpd-files.ts";
import { EXPORT_SOURCES, type ExportTable, phonesOf, type Row, type Source } from "./rgpd-sources.ts";
import { expireGooglePasses, googleCardsOf } from "../wallet/updates.service.ts";

/** Every row about the person, table by table (secret columns left out, other people's data blanked). */
export async function collectPersonalData(db: Db, userId: string): Promise<PersonalData> {
  const [me] = (await db.execute<{ email: string }>(sql`select email from "user" where id = ${userId}`)).rows;
  if (!me) throw new AppError("UNAUTHENTICATED");
  const out = {} as PersonalData;
  for (const [table, source] of Object.entries(EXPORT_SOURCES) as [ExportTable, Source][]) {
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

/** One CSV per table, written like every other export (src/domain/loyalty/csv.ts); objects as JSON (a shop's closing export). */
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

/**
 * The archive, in one zip: LISEZ-MOI.txt, a French CSV per subject the person has rows in, and donnees.json with
 * everything (rgpd-archive.ts).
 */
export async function exportArchive(
  db: Db,
  userId: string,
  options: { env: Pick<Env, "APP_URL" | "LEGAL_CONTACT">; now?: Date },
) {
  const now = options.now ?? new Date();
  const data = await collectPersonalData(db, userId);
  const email = String(data.user[0]?.email ?? "");
  const files = await archiveFiles(
    db,
    data,
    { id: userId, email },
    {
      now,
      appUrl: options.env.APP_URL,
      contact: options.env.LEGAL_CONTACT,
    },
  );
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
type EraseConfirmation = { password: string } | { code: string } | { purge: true };

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
  // Their cards' Google objects, read now: the pass rows go with the account (wallet/updates.service.ts).
  const googleCards = await googleCardsOf(db, userId);
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
    // A referral's device id and network are the friend's (when they accepted): they go with them. The row stays,
    // naming nobody once friend_id is set null, so the sponsor's monthly count stays true. Their own referral links
    // (referral_codes, with the device and network they last opened it from) go with the account (cascade).
    await tx.execute(sql`update referrals set device_id = null, network = null where friend_id = ${userId}`);
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
  await expireGooglePasses(deps, googleCards);
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
