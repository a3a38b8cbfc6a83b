import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { AppError } from "../../../domain/errors.ts";
import { type ApiScope, IDEMPOTENCY_HEADER, idempotencyHeaderSchema } from "../../../domain/schemas/till.ts";
import type { AppEnv } from "../../lib/context.ts";
import { consumeThrottle } from "../../lib/throttle.ts";
import { type ApiCaller, authenticateApiKey } from "./api-keys.service.ts";

/** The context of a till route: the key that calls, and the write's idempotency key. */
export type TillEnv = { Variables: AppEnv["Variables"] & { caller: ApiCaller; idempotencyKey: string } };

/** Requests a key may make per minute (ADR 0050): a busy till makes a few a sale. */
const API_KEY_RATE = { windowSeconds: 60, max: 120 };

/** The key (401), then its rate (429 with Retry-After), once for every till route. */
export const tillAuth = createMiddleware<TillEnv>(async (c, next) => {
  const { db } = c.get("deps");
  const caller = await authenticateApiKey(db, c.req.header("authorization"));
  const rate = await consumeThrottle(db, `apikey:${caller.keyId}`, API_KEY_RATE.windowSeconds, API_KEY_RATE.max);
  if (!rate.allowed) {
    c.header("Retry-After", String(rate.retryAfter ?? API_KEY_RATE.windowSeconds));
    throw new AppError("RATE_LIMITED", {
      message: "API key over its rate",
      userMessage: `Trop de requêtes avec cette clé : ${API_KEY_RATE.max} par minute au plus.`,
    });
  }
  c.set("caller", caller);
  await next();
});

/** A route that needs `scope`: a key without it gets 403. */
export const needs = (scope: ApiScope) =>
  createMiddleware<TillEnv>(async (c, next) => {
    if (!c.get("caller").scopes.includes(scope)) {
      throw new AppError("FORBIDDEN", {
        message: `API key without ${scope}`,
        userMessage: `Cette clé n'a pas le droit « ${scope} ».`,
      });
    }
    await next();
  });

/**
 * Every write: `Idempotency-Key` required; the first answer (not a 5xx) is kept per API key and returned again to
 * a retry, flagged `Idempotent-Replayed: true`; the same key with another request is a 400; a retry while the
 * first is still being answered is a 409. Claimed by an insert on the (key, idempotency key) primary key, so two
 * processes cannot both run it.
 */
export const idempotent = createMiddleware<TillEnv>(async (c, next) => {
  const parsed = idempotencyHeaderSchema.safeParse(c.req.header(IDEMPOTENCY_HEADER));
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "En-tête Idempotency-Key invalide.";
    throw new AppError("VALIDATION", {
      message: "bad Idempotency-Key",
      userMessage: message,
      fields: { [IDEMPOTENCY_HEADER]: message },
    });
  }
  const key = parsed.data;
  const { db } = c.get("deps");
  const keyId = c.get("caller").keyId;
  const body = await c.req.text();
  const fingerprint = createHash("sha256").update(`${c.req.method} ${c.req.path}\n${body}`).digest("hex");
  const claimed = await db.execute(sql`
    insert into api_idempotency (key_id, idempotency_key, fingerprint) values (${keyId}, ${key}, ${fingerprint})
    on conflict do nothing returning key_id`);
  if (claimed.rows.length === 0) {
    const found = await db.execute<{ fingerprint: string; status: number | null; response: unknown }>(sql`
      select fingerprint, status, response from api_idempotency where key_id = ${keyId} and idempotency_key = ${key}`);
    const first = found.rows[0];
    if (first && first.fingerprint !== fingerprint) {
      throw new AppError("VALIDATION", {
        message: "idempotency key reused for another request",
        userMessage: "Cette clé Idempotency-Key a déjà servi pour une autre requête : une clé par opération.",
      });
    }
    if (!first || first.status === null) {
      throw new AppError("CONFLICT", {
        message: "idempotent request in flight",
        userMessage: "Cette opération est en cours de traitement : réessayez dans un instant.",
      });
    }
    c.header("Idempotent-Replayed", "true");
    return c.json(first.response as object, first.status as 200);
  }
  c.set("idempotencyKey", key);
  await next();
  if (c.res.status >= 500) {
    await db.execute(sql`delete from api_idempotency where key_id = ${keyId} and idempotency_key = ${key}`);
    return;
  }
  const response = await c.res
    .clone()
    .json()
    .catch(() => null);
  await db.execute(sql`
    update api_idempotency set status = ${c.res.status}, response = ${JSON.stringify(response)}::jsonb
    where key_id = ${keyId} and idempotency_key = ${key}`);
});
