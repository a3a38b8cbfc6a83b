import { timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import type { Db } from "../../db/client.ts";
import { walletPasses, walletRegistrations } from "../../db/schema/index.ts";
import { type PassRow, type PassView, readPassViews, recordContent } from "./passes.service.ts";

/**
 * Apple's PassKit web service, the server's side (https://developer.apple.com/documentation/walletpasses/adding-a-web-service-to-update-passes):
 * devices register a pass for updates with the pass's authentication token, ask which of their passes changed since
 * a tag, fetch the latest pass, and unregister. A pass that is gone (its holder's account erased) is a 401, as for a
 * wrong token: the device stops asking.
 */

const unauthorized = () => new AppError("UNAUTHENTICATED", { message: "wallet: bad or unknown pass token" });

/** `Authorization: ApplePass <token>` → the token, or null. */
export function applePassToken(header: string | undefined): string | null {
  const match = header ? /^ApplePass\s+(\S+)$/.exec(header.trim()) : null;
  return match?.[1] ?? null;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The pass this token opens, else 401 (the same answer for an unknown serial and a wrong token). */
export async function authorizedPass(db: Db, cardId: string, token: string | null): Promise<PassRow> {
  if (!token) throw unauthorized();
  const [row] = await db.select().from(walletPasses).where(eq(walletPasses.cardId, cardId)).limit(1);
  if (!row || !sameToken(row.authToken, token)) throw unauthorized();
  return row;
}

/** Registers the device for the pass's updates: true when new (201), false when it already was (200). */
export async function registerDevice(db: Db, pass: PassRow, deviceId: string, pushToken: string): Promise<boolean> {
  const inserted = await db
    .insert(walletRegistrations)
    .values({ deviceId, cardId: pass.cardId, pushToken })
    .onConflictDoNothing()
    .returning({ deviceId: walletRegistrations.deviceId });
  if (inserted.length > 0) return true;
  await db
    .update(walletRegistrations)
    .set({ pushToken })
    .where(and(eq(walletRegistrations.deviceId, deviceId), eq(walletRegistrations.cardId, pass.cardId)));
  return false;
}

export async function unregisterDevice(db: Db, pass: PassRow, deviceId: string): Promise<void> {
  await db
    .delete(walletRegistrations)
    .where(and(eq(walletRegistrations.deviceId, deviceId), eq(walletRegistrations.cardId, pass.cardId)));
}

/** The pass's view as it stands now, its change (if any) recorded: what the latest pass and the lists serve. */
export async function currentPass(db: Db, cardId: string): Promise<{ row: PassRow; view: PassView } | null> {
  const view = (await readPassViews(db, [cardId])).get(cardId);
  if (!view) return null;
  const row = await recordContent(db, view);
  return row ? { row, view } : null;
}

/** The modification tag devices keep: milliseconds since the epoch, as text. */
const tagOf = (date: Date) => String(date.getTime());

/**
 * The serial numbers of the device's passes changed after `since` (all of them without it) and the new tag; null
 * when none changed (204). Each pass is compared with its sources first, so a change no job has looked at yet is
 * seen too.
 */
export async function updatedSerials(
  db: Db,
  deviceId: string,
  since: string | undefined,
): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
  const registered = await db
    .select({ cardId: walletRegistrations.cardId })
    .from(walletRegistrations)
    .where(eq(walletRegistrations.deviceId, deviceId));
  if (registered.length === 0) return null;
  const views = await readPassViews(
    db,
    registered.map((r) => r.cardId),
  );
  const after = since !== undefined && /^\d{1,16}$/.test(since) ? Number(since) : -1;
  const changed: { serial: string; at: Date }[] = [];
  for (const view of views.values()) {
    const row = await recordContent(db, view);
    if (row && row.updatedAt.getTime() > after) changed.push({ serial: row.cardId, at: row.updatedAt });
  }
  if (changed.length === 0) return null;
  const latest = new Date(Math.max(...changed.map((c) => c.at.getTime())));
  return { serialNumbers: changed.map((c) => c.serial).sort(), lastUpdated: tagOf(latest) };
}

/** Whether the pass changed after an `If-Modified-Since` date (HTTP dates have whole seconds). */
export function modifiedSince(updatedAt: Date, header: string | undefined): boolean {
  if (!header) return true;
  const since = Date.parse(header);
  if (Number.isNaN(since)) return true;
  return Math.floor(updatedAt.getTime() / 1000) * 1000 > since;
}
