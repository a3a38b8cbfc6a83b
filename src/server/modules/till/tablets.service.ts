import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { formatEuros } from "../../../domain/format.ts";
import type { tabletCreateSchema } from "../../../domain/schemas/till.ts";
import type { Db } from "../../db/client.ts";
import { counterTablets } from "../../db/schema/index.ts";
import { recordAudit } from "../../lib/audit.ts";
import { refuseCappedInsert, type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/**
 * A shop's counter tablets (issue 29 item 6, docs/decisions/0054-counter-tablet.md). The owner names a tablet and
 * sets the staff PIN; the answer holds a one-time pairing link (shown once, valid an hour); the tablet opens it and
 * gets its own credential, an httpOnly cookie good for the tablet routes only. Only hashes are kept: SHA-256 of the
 * link's code and of the credential (256 random bits each: nothing to brute-force), scrypt of the PIN (a PIN is
 * a few digits: a slow, salted hash).
 */
const MAX_TABLETS = 10;
const PAIRING_MINUTES = 60;
const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const randomCode = () => randomBytes(32).toString("base64url");

async function hashPin(pin: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString("base64url")}$${(await scryptAsync(pin, salt, 32)).toString("base64url")}`;
}

export async function pinMatches(pin: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(pin, Buffer.from(salt, "base64url"), expected.length);
  return timingSafeEqual(actual, expected);
}

/** The pairing link: the code rides in the fragment, which no server log, proxy or Referer ever sees. */
const pairingUrl = (appUrl: string, code: string) => `${appUrl.replace(/\/$/, "")}/tablette#appairage=${code}`;

function tabletDto(t: typeof counterTablets.$inferSelect) {
  return {
    id: t.id,
    name: t.name,
    createdAt: t.createdAt.toISOString(),
    pairedAt: t.pairedAt?.toISOString() ?? null,
    /** Until when its pairing link works (null once paired). */
    pairingExpiresAt: t.pairedAt ? null : (t.pairingExpiresAt?.toISOString() ?? null),
    lastSeenAt: t.lastSeenAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}

export async function listTablets(db: Db, access: ShopAccess) {
  const rows = await db
    .select()
    .from(counterTablets)
    .where(eq(counterTablets.shopId, shopScope(access)))
    .orderBy(desc(counterTablets.createdAt));
  const today = await amountCodesToday(db, access);
  return rows.map((t) => ({ ...tabletDto(t), today: today.get(t.id) ?? null }));
}

/**
 * Each tablet's amount codes of the shop's day (ADR 0054): how many, for how much, how many a customer scanned —
 * what the owner sets beside the till's takings (a code nobody scanned, or a day's total above the till's, is worth
 * a question to the team).
 */
async function amountCodesToday(db: Db, access: ShopAccess) {
  const result = await db.execute<{ tablet_id: string; codes: number; cents: string | number; claimed: number }>(sql`
    select c.tablet_id, count(*)::int as codes, sum(c.amount_cents)::bigint as cents,
           count(rc.receipt_id)::int as claimed
    from tablet_amount_codes c
    join shops s on s.id = c.shop_id
    left join receipt_claims rc on rc.shop_id = c.shop_id and rc.receipt_id = c.receipt_id
    where c.shop_id = ${shopScope(access)}
      and c.created_at >= (date_trunc('day', now() at time zone s.timezone) at time zone s.timezone)
    group by c.tablet_id`);
  return new Map(
    result.rows.map((r) => [
      r.tablet_id,
      {
        codes: r.codes,
        claimed: r.claimed,
        amountLabel: formatEuros(Number(r.cents) / 100),
      },
    ]),
  );
}

/** A new tablet waiting to be paired; its pairing link is in this answer only. */
export async function createTablet(
  db: Db,
  access: ShopAccess,
  input: z.output<typeof tabletCreateSchema>,
  appUrl: string,
) {
  const code = randomCode();
  const pinHash = await hashPin(input.pin);
  const result = await db.execute<{ id: string }>(sql`
    insert into counter_tablets (shop_id, name, pin_hash, pairing_hash, pairing_expires_at, created_by)
    select s.id, ${input.name}, ${pinHash}, ${sha256(code)}, now() + make_interval(mins => ${PAIRING_MINUTES}),
           ${access.userId}
    from shops s
    where s.id = ${shopScope(access)}
      and (select count(*) from counter_tablets t where t.shop_id = s.id and t.revoked_at is null) < ${MAX_TABLETS}
    returning id`);
  const id = result.rows[0]?.id;
  if (!id) {
    return refuseCappedInsert(
      db,
      access,
      `${MAX_TABLETS} tablettes actives au plus : retirez-en une avant d'en ajouter une autre.`,
    );
  }
  await recordAudit(db, {
    actorId: access.userId,
    shopId: access.shopId,
    action: "tablet.create",
    target: id,
    details: { name: input.name },
  });
  const [row] = await db.select().from(counterTablets).where(eq(counterTablets.id, id));
  return { tablet: tabletDto(row!), pairingUrl: pairingUrl(appUrl, code) };
}

export async function revokeTablet(db: Db, access: ShopAccess, tabletId: string) {
  const [row] = await db
    .update(counterTablets)
    .set({ revokedAt: sql`coalesce(${counterTablets.revokedAt}, now())`, pairingHash: null })
    .where(and(eq(counterTablets.id, tabletId), eq(counterTablets.shopId, shopScope(access))))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Tablette introuvable." });
  await recordAudit(db, {
    actorId: access.userId,
    shopId: access.shopId,
    action: "tablet.revoke",
    target: row.id,
    details: { name: row.name },
  });
  return tabletDto(row);
}

const LINK_GONE =
  "Ce lien d'appairage n'est plus valable (déjà utilisé, expiré ou retiré) : demandez-en un nouveau au responsable de la boutique (Caisse et API › Tablette de comptoir).";

/**
 * The tablet opens its link: the link's code is spent (one statement, so two openings pair once) and the tablet's
 * credential is made; the caller sets it as a cookie.
 */
export async function pairTablet(db: Db, code: string) {
  const token = randomCode();
  const result = await db.execute<{ id: string; name: string }>(sql`
    update counter_tablets set pairing_hash = null, pairing_expires_at = null, token_hash = ${sha256(token)},
      paired_at = now(), last_seen_at = now()
    where pairing_hash = ${sha256(code)} and pairing_expires_at > now() and revoked_at is null
    returning id, name`);
  const row = result.rows[0];
  if (!row) throw new AppError("NOT_FOUND", { message: "unknown or spent pairing code", userMessage: LINK_GONE });
  return { token, tablet: { id: row.id, name: row.name } };
}

export type TabletCaller = { tabletId: string; name: string };

/** The one answer for a request without a working tablet credential. */
export const tabletUnpaired = () =>
  new AppError("UNAUTHENTICATED", {
    message: "no paired tablet",
    userMessage:
      "Cette tablette n'est reliée à aucune boutique : le responsable crée un lien dans Caisse et API › Tablette de comptoir.",
  });

/**
 * The tablet of a request by its credential, paired and not revoked; else 401. Its last sight is written at most
 * once a minute (it asks every few seconds).
 */
export async function authenticateTablet(db: Db, token: string | undefined): Promise<TabletCaller> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) throw tabletUnpaired();
  const hash = sha256(token);
  const seen = await db.execute<{ id: string; name: string }>(sql`
    update counter_tablets set last_seen_at = now()
    where token_hash = ${hash} and revoked_at is null
      and (last_seen_at is null or last_seen_at < now() - interval '1 minute')
    returning id, name`);
  let row = seen.rows[0];
  if (!row) {
    const again = await db.execute<{ id: string; name: string }>(sql`
      select id, name from counter_tablets where token_hash = ${hash} and revoked_at is null`);
    row = again.rows[0];
  }
  if (!row) throw tabletUnpaired();
  return { tabletId: row.id, name: row.name };
}

/**
 * The tablet's shop as a subquery that yields its id only while the tablet is not revoked: every query of a tablet
 * route scopes by it, so a tablet revoked mid-request reaches nothing.
 */
export const tabletScope = (caller: TabletCaller): SQL =>
  sql`(select t.shop_id from counter_tablets t where t.id = ${caller.tabletId} and t.revoked_at is null)`;
