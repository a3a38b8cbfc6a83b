import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import type { Db } from "../../db/client.ts";
import { cards, walletGoogleClasses, walletPasses, walletRegistrations } from "../../db/schema/index.ts";
import type { AppEnv, Deps } from "../../lib/context.ts";
import type { ShopAccess } from "../../lib/shop-access.ts";
import { DEFAULT_TIMEZONE, localParts } from "../../../domain/loyalty/time.ts";
import { pushToDevice } from "./apns.ts";
import { googleClassOf, type PassRef, patchGoogleClass, patchGoogleObject } from "./google-wallet.ts";
import { type PassView, readPassViews, recordContent } from "./passes.service.ts";
import { walletConfig, walletStatus } from "./wallet-config.ts";

/**
 * Passes kept live (issue 26 item 2, ADR 0045). A change anywhere — a visit, a redemption, a correction, a reward,
 * the card's design, the personal code, the shop closing — is found by comparing each pass with its sources: its
 * content hash moves. Who asks for the comparison:
 * - `walletWatch`, after any successful write through the API, for the passes of the shop it was made in (the back
 *   office) or of the person who made it (a scan, a redemption, a new personal code): a `wallet.sweep` job, after
 *   the answer, never in the request's way;
 * - the `wallet.sweep` schedule, every minute, for the passes whose sources changed since they were last compared
 *   (what no request announced: an expired redemption's refund, a change made by a job).
 * A changed pass gets a `wallet.apple` job (its registered iPhones) and a `wallet.google` job (its Google object);
 * each is one job a card at a time (stately queues keyed by card), and Apple's at most one push a card a minute.
 */

/** What a sweep compares: a shop's passes, a person's, given cards, or (none) those whose sources moved. */
type SweepScope = { shopId?: string; userId?: string; cardIds?: string[] };

/** Apple: at most one push per card in this many seconds. */
const APPLE_PUSH_INTERVAL_SECONDS = 60;
/** Passes compared at most per sweep (the schedule comes back a minute later for the rest). */
const SWEEP_BATCH = 500;

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Whether any pass of this scope exists (one indexed read), so most requests queue nothing. */
async function scopeHasPasses(db: Db, scope: SweepScope): Promise<boolean> {
  const where = scope.shopId
    ? sql`exists (select 1 from ${walletPasses} p join ${cards} c on c.id = p.card_id where c.shop_id = ${scope.shopId})`
    : sql`exists (select 1 from ${walletPasses} p where p.user_id = ${scope.userId ?? ""})`;
  const { rows } = await db.execute<{ found: boolean }>(sql`select ${where} as found`);
  return rows[0]?.found === true;
}

/** Queues a comparison of this scope's passes (one waiting per scope at most). Never throws. */
async function queueSweep(deps: Deps, scope: SweepScope): Promise<void> {
  try {
    if (!deps.jobs.started) return;
    if (!(await scopeHasPasses(deps.db, scope))) return;
    const key = scope.shopId ? `shop:${scope.shopId}` : `user:${scope.userId}`;
    await deps.jobs.send("wallet.sweep", scope, { singletonKey: key });
  } catch (error) {
    deps.logger.warn("wallet: could not queue a pass update", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * After a successful write through the API: the passes it may have changed are compared, after the answer (never
 * awaited by the request). Off when neither wallet is configured.
 */
export const walletWatch: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (!STATE_CHANGING.has(c.req.method) || c.res.status >= 400) return;
  const deps = c.get("deps");
  const status = walletStatus(deps.env);
  if (!status.apple && !status.google) return;
  if (c.req.path.startsWith("/api/wallet/")) return;
  // The back office's guard sets the shop (lib/shop-access.ts) on this same context.
  const access = (c as unknown as Context<{ Variables: { access?: ShopAccess } }>).get("access");
  const user = c.get("user");
  const scope: SweepScope | null = access ? { shopId: access.shopId } : user ? { userId: user.id } : null;
  if (scope) void queueSweep(deps, scope);
};

/** The passes of a scope; without one, those whose sources changed since they were last compared. */
async function passesIn(db: Db, scope: SweepScope): Promise<string[]> {
  if (scope.cardIds) return scope.cardIds;
  if (scope.userId) {
    const rows = await db
      .select({ cardId: walletPasses.cardId })
      .from(walletPasses)
      .where(eq(walletPasses.userId, scope.userId));
    return rows.map((r) => r.cardId);
  }
  if (scope.shopId) {
    const rows = await db
      .select({ cardId: walletPasses.cardId })
      .from(walletPasses)
      .innerJoin(cards, eq(cards.id, walletPasses.cardId))
      .where(eq(cards.shopId, scope.shopId));
    return rows.map((r) => r.cardId);
  }
  const { rows } = await db.execute<{ card_id: string }>(sql`
    select p.card_id from wallet_passes p
    join cards c on c.id = p.card_id
    join shops s on s.id = c.shop_id
    left join personal_codes pc on pc.user_id = p.user_id
    where c.updated_at > p.checked_at
      or s.updated_at > p.checked_at
      or pc.created_at > p.checked_at
      or exists (select 1 from rewards r where r.shop_id = c.shop_id and r.updated_at > p.checked_at)
      or (p.apple_pushed_hash is distinct from p.content_hash
          and exists (select 1 from wallet_registrations w where w.card_id = p.card_id))
      or (p.google_issued_at is not null and p.google_synced_hash is distinct from p.content_hash)
    limit ${SWEEP_BATCH}`);
  return rows.map((r) => r.card_id);
}

/**
 * Compares the scope's passes with their sources, records what changed, and queues the pushes the devices have not
 * had yet. Returns how many passes were compared and how many updates were queued.
 */
export async function sweepPasses(deps: Deps, scope: SweepScope) {
  const { db } = deps;
  const config = walletConfig(deps.env);
  const cardIds = await passesIn(db, scope);
  if (cardIds.length === 0) return { compared: 0, queued: 0 };
  const views = await readPassViews(db, cardIds);
  const [rows, registrations] = await Promise.all([
    db.select().from(walletPasses).where(inArray(walletPasses.cardId, cardIds)),
    db
      .selectDistinct({ cardId: walletRegistrations.cardId })
      .from(walletRegistrations)
      .where(inArray(walletRegistrations.cardId, cardIds)),
  ]);
  const registered = new Set(registrations.map((r) => r.cardId));
  // Unchanged passes are only marked compared, in one statement (a shop's sweep may cover thousands).
  const unchanged = rows.filter((r) => views.get(r.cardId)?.hash === r.contentHash).map((r) => r.cardId);
  if (unchanged.length > 0) {
    await db.update(walletPasses).set({ checkedAt: sql`now()` }).where(inArray(walletPasses.cardId, unchanged));
  }
  let queued = 0;
  for (const before of rows) {
    const view = views.get(before.cardId);
    if (!view) continue;
    const row = view.hash === before.contentHash ? before : await recordContent(db, view);
    if (!row) continue;
    if (config.apple && registered.has(row.cardId) && row.applePushedHash !== row.contentHash) {
      if (await deps.jobs.send("wallet.apple", { cardId: row.cardId }, { singletonKey: row.cardId })) queued++;
    }
    if (config.google && row.googleIssuedAt && row.googleSyncedHash !== row.contentHash) {
      if (await deps.jobs.send("wallet.google", { cardId: row.cardId }, { singletonKey: row.cardId })) queued++;
    }
  }
  return { compared: views.size, queued };
}

/**
 * Tells the pass's iPhones it changed: one empty push each, at most once a card a minute (the claim below is the one
 * rule, whatever the number of processes); a later change waits for the minute to pass (a job due then). A 410
 * forgets the device; a 429 or a failure is tried again after the time APNs asked for, and never sooner than the
 * minute.
 */
export async function pushApplePass(deps: Deps, cardId: string) {
  const { db, logger } = deps;
  const apple = walletConfig(deps.env).apple;
  if (!apple) return { pushed: 0 };
  const [pass] = await db.select().from(walletPasses).where(eq(walletPasses.cardId, cardId)).limit(1);
  if (!pass || pass.applePushedHash === pass.contentHash) return { pushed: 0 };
  const claimed = await db
    .update(walletPasses)
    .set({ applePushedAt: sql`now()`, applePushedHash: walletPasses.contentHash })
    .where(
      and(
        eq(walletPasses.cardId, cardId),
        sql`(${walletPasses.applePushedAt} is null
          or ${walletPasses.applePushedAt} <= now() - make_interval(secs => ${APPLE_PUSH_INTERVAL_SECONDS}))`,
      ),
    )
    .returning({ pushedAt: walletPasses.applePushedAt });
  if (claimed.length === 0) {
    // Pushed less than a minute ago: once the minute is over, with whatever the pass says then.
    const waitMs = Math.max(0, (pass.applePushedAt?.getTime() ?? 0) + APPLE_PUSH_INTERVAL_SECONDS * 1000 - Date.now());
    await deps.jobs.send(
      "wallet.apple",
      { cardId },
      { singletonKey: cardId, startAfter: Math.ceil(waitMs / 1000) + 1 },
    );
    return { pushed: 0, deferred: true };
  }
  const devices = await db
    .select({ deviceId: walletRegistrations.deviceId, pushToken: walletRegistrations.pushToken })
    .from(walletRegistrations)
    .where(eq(walletRegistrations.cardId, cardId));
  let pushed = 0;
  let retryMs: number | null = null;
  for (const device of devices) {
    const outcome = await pushToDevice(apple, device.pushToken);
    if (outcome.ok) {
      pushed++;
      continue;
    }
    if (outcome.gone) {
      await db
        .delete(walletRegistrations)
        .where(
          and(
            eq(walletRegistrations.deviceId, device.deviceId),
            eq(walletRegistrations.cardId, cardId),
            eq(walletRegistrations.pushToken, device.pushToken),
          ),
        );
      logger.info("wallet: a device left (APNs)", { status: outcome.status, reason: outcome.reason });
      continue;
    }
    logger.warn("wallet: APNs refused a push", { status: outcome.status, reason: outcome.reason });
    if (outcome.retryAfterMs !== null) retryMs = Math.max(retryMs ?? 0, outcome.retryAfterMs);
  }
  if (retryMs !== null) {
    // Not everyone was told: the pass counts as not pushed, and the next try respects both APNs and the minute.
    await db
      .update(walletPasses)
      .set({ applePushedHash: null })
      .where(and(eq(walletPasses.cardId, cardId), isNotNull(walletPasses.applePushedAt)));
    const seconds = Math.ceil(Math.max(retryMs, APPLE_PUSH_INTERVAL_SECONDS * 1000) / 1000);
    await deps.jobs.send("wallet.apple", { cardId }, { singletonKey: cardId, startAfter: seconds });
  }
  return { pushed, devices: devices.length };
}

/** Google lets a pass notify its holder 3 times a day (partner-triggered notifications). */
const GOOGLE_NOTIFICATIONS_PER_DAY = 3;

/**
 * Brings a card's Google object up to date with one PATCH (or expires it: `expire`, for an erased account's card,
 * whose pass row went with the account). The phone is notified while the pass has notifications left today; a 404
 * is a card not saved (yet): nothing to do; Google's quota error (429) is waited out, then tried again.
 */
export async function syncGooglePass(deps: Deps, cardId: string, options: { expire?: boolean } = {}) {
  const { db, logger } = deps;
  const google = walletConfig(deps.env).google;
  if (!google) return { patched: false };
  const view = (await readPassViews(db, [cardId])).get(cardId);
  if (!view) return { patched: false };
  const today = localParts(new Date(), DEFAULT_TIMEZONE).date;
  let notify = false;
  if (!options.expire) {
    const [pass] = await db.select().from(walletPasses).where(eq(walletPasses.cardId, cardId)).limit(1);
    if (!pass?.googleIssuedAt) return { patched: false };
    const row = await recordContent(db, view);
    if (!row || row.googleSyncedHash === row.contentHash) return { patched: false };
    const sentToday = row.googleNotifiedOn === today ? row.googleNotifiedCount : 0;
    notify = sentToday < GOOGLE_NOTIFICATIONS_PER_DAY;
  }
  const content = options.expire ? { ...view.content, voided: true, barcode: null } : view.content;
  const outcome = await patchGoogleObject(google, cardId, content, notify);
  if (outcome.kind === "later") {
    logger.warn("wallet: Google asked to wait", { reason: outcome.reason });
    await deps.jobs.send(
      "wallet.google",
      { cardId, ...(options.expire ? { expire: true } : {}) },
      { singletonKey: cardId, startAfter: Math.ceil(outcome.afterMs / 1000) },
    );
    return { patched: false, later: true };
  }
  if (outcome.kind === "refused")
    logger.warn("wallet: Google refused an update", { status: outcome.status, reason: outcome.reason });
  if (options.expire) return { patched: outcome.kind === "updated" };
  if (outcome.kind === "updated") await syncGoogleClass(deps, view);
  const notified = notify && outcome.kind === "updated";
  await db
    .update(walletPasses)
    .set({
      googleSyncedHash: view.hash,
      ...(notified
        ? {
            googleNotifiedCount: sql`case when ${walletPasses.googleNotifiedOn} = ${today} then ${walletPasses.googleNotifiedCount} + 1 else 1 end`,
            googleNotifiedOn: today,
          }
        : {}),
    })
    .where(eq(walletPasses.cardId, cardId));
  return { patched: outcome.kind === "updated", notified };
}

/** What Google shows of a card's shop: its class, with the instance's own address for the logo. */
export function googlePassRef(view: PassView, appUrl: string): PassRef {
  const logoUrl = new URL(view.logoPath ?? "/pwa-512x512.png", appUrl).toString();
  return { cardId: view.cardId, shopId: view.shopId, logoUrl };
}

/**
 * The shop's class, PATCHed when what it shows (name, programme, logo, colour) changed since it was last sent: once
 * per change, not at every card's update. Google's quota or a failure leaves the hash as it was: the next card's
 * update tries again.
 */
async function syncGoogleClass(deps: Deps, view: PassView) {
  const google = walletConfig(deps.env).google;
  if (!google) return;
  const { fields, hash } = googleClassOf(google, googlePassRef(view, deps.env.APP_URL), view.content);
  const [known] = await deps.db
    .select({ hash: walletGoogleClasses.hash })
    .from(walletGoogleClasses)
    .where(eq(walletGoogleClasses.shopId, view.shopId));
  if (known?.hash === hash) return;
  const outcome = await patchGoogleClass(google, view.shopId, fields);
  if (outcome.kind !== "updated") {
    if (outcome.kind !== "absent")
      deps.logger.warn("wallet: Google did not take the class", {
        shopId: view.shopId,
        reason: outcome.kind === "later" ? outcome.reason : outcome.kind === "refused" ? outcome.reason : "",
      });
    return;
  }
  await deps.db
    .insert(walletGoogleClasses)
    .values({ shopId: view.shopId, hash })
    .onConflictDoUpdate({ target: walletGoogleClasses.shopId, set: { hash, syncedAt: sql`now()` } });
}

/** The cards whose Google object may exist, read before an account is erased (its pass rows go with it). */
export async function googleCardsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ cardId: walletPasses.cardId })
    .from(walletPasses)
    .where(and(eq(walletPasses.userId, userId), isNotNull(walletPasses.googleIssuedAt)));
  return rows.map((r) => r.cardId);
}

/** After an erasure: each of those Google objects is expired (Google shows the card as no longer valid). */
export async function expireGooglePasses(deps: Deps, cardIds: readonly string[]): Promise<void> {
  if (cardIds.length === 0 || !walletConfig(deps.env).google || !deps.jobs.started) return;
  for (const cardId of cardIds) {
    await deps.jobs.send("wallet.google", { cardId, expire: true }, { singletonKey: `expire:${cardId}` });
  }
}
