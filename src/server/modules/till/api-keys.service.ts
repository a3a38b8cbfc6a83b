import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { API_SCOPE_LABELS_FR, type ApiScope, type apiKeyCreateSchema } from "../../../domain/schemas/till.ts";
import type { Db } from "../../db/client.ts";
import { apiKeys } from "../../db/schema/index.ts";
import { refuseCappedInsert, type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/**
 * A shop's API keys (issue 29, ADR 0050): `fid_` + 32 random bytes (base64url). Only the SHA-256 of a key is kept
 * (a key is 256 bits of randomness, so no slow hash is needed: nothing to brute-force); the key is shown once, at
 * creation; the owner recognises it by its first 12 characters. Revoked keys stay listed, refused at once.
 */
const KEY_PREFIX = "fid_";
const MAX_KEYS = 20;

const hashApiKey = (key: string) => createHash("sha256").update(key).digest("hex");

function keyDto(k: typeof apiKeys.$inferSelect) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes as ApiScope[],
    scopeLabels: (k.scopes as ApiScope[]).map((s) => API_SCOPE_LABELS_FR[s]),
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}

export async function listApiKeys(db: Db, access: ShopAccess) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.shopId, shopScope(access)))
    .orderBy(desc(apiKeys.createdAt));
  return rows.map(keyDto);
}

/** A new key; `secret` is in this answer only. */
export async function createApiKey(db: Db, access: ShopAccess, input: z.output<typeof apiKeyCreateSchema>) {
  const secret = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  const result = await db.execute<{ id: string }>(sql`
    insert into api_keys (shop_id, name, prefix, secret_hash, scopes, created_by)
    select s.id, ${input.name}, ${secret.slice(0, 12)}, ${hashApiKey(secret)}, ${`{${input.scopes.join(",")}}`}::text[], ${access.userId}
    from shops s
    where s.id = ${shopScope(access)}
      and (select count(*) from api_keys k where k.shop_id = s.id and k.revoked_at is null) < ${MAX_KEYS}
    returning id`);
  const id = result.rows[0]?.id;
  if (!id) return refuseCappedInsert(db, access, `${MAX_KEYS} clés actives au plus : révoquez-en d'anciennes.`);
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return { key: keyDto(row!), secret };
}

export async function revokeApiKey(db: Db, access: ShopAccess, keyId: string) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.shopId, shopScope(access))))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Clé introuvable." });
  return keyDto(row);
}

export type ApiCaller = { keyId: string; shopId: string; scanUid: string; scopes: ApiScope[] };

/**
 * The key of a request (`Authorization: Bearer fid_…`), active, with its shop; else 401. Its last use is written
 * at most once a minute (a busy till does not write a row per sale).
 */
export async function authenticateApiKey(db: Db, authorization: string | undefined): Promise<ApiCaller> {
  const match = /^Bearer\s+(fid_[A-Za-z0-9_-]{43})\s*$/.exec(authorization ?? "");
  if (!match) {
    throw new AppError("UNAUTHENTICATED", {
      message: "no API key",
      userMessage: "Clé d'API manquante ou mal formée : en-tête « Authorization: Bearer fid_… ».",
    });
  }
  const result = await db.execute<{ id: string; shop_id: string; scan_uid: string; scopes: string[] }>(sql`
    update api_keys k set last_used_at = now()
    from shops s
    where k.secret_hash = ${hashApiKey(match[1]!)} and k.revoked_at is null and s.id = k.shop_id
      and (k.last_used_at is null or k.last_used_at < now() - interval '1 minute')
    returning k.id, k.shop_id, s.scan_uid, k.scopes`);
  let row = result.rows[0];
  if (!row) {
    const again = await db.execute<{ id: string; shop_id: string; scan_uid: string; scopes: string[] }>(sql`
      select k.id, k.shop_id, s.scan_uid, k.scopes from api_keys k join shops s on s.id = k.shop_id
      where k.secret_hash = ${hashApiKey(match[1]!)} and k.revoked_at is null`);
    row = again.rows[0];
  }
  if (!row) {
    throw new AppError("UNAUTHENTICATED", {
      message: "unknown or revoked API key",
      userMessage: "Clé d'API inconnue ou révoquée.",
    });
  }
  return { keyId: row.id, shopId: row.shop_id, scanUid: row.scan_uid, scopes: row.scopes as ApiScope[] };
}
