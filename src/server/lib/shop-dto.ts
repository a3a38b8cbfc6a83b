import { AppError } from "../../domain/errors.ts";
import type { Closure, WeeklyHours } from "../../domain/loyalty/hours.ts";
import { openLabelFr, openStateAt } from "../../domain/loyalty/hours.ts";
import { localParts } from "../../domain/loyalty/time.ts";
import { type CardDesign, categoryLabelFr, DEFAULT_CARD_DESIGN } from "../../domain/schemas/shops.ts";

/** Shapes shared by the shop and card answers (what the web app shows). */

/** Image URLs carry a version so a new logo is not hidden by a cached old one. */
export function imageUrl(slug: string, kind: "logo" | "cover", has: boolean, version: Date): string | null {
  return has ? `/api/shops/${encodeURIComponent(slug)}/${kind}?v=${version.getTime().toString(36)}` : null;
}

/** An image stored as a data URL, decoded for serving; 404 when there is none. */
export function decodeImageDataUrl(data: string | null | undefined): { mime: string; bytes: Buffer } {
  const match = data ? /^data:(image\/(?:png|jpeg|webp));base64,(.*)$/.exec(data) : null;
  if (!match) throw new AppError("NOT_FOUND", { userMessage: "Image introuvable." });
  return { mime: match[1]!, bytes: Buffer.from(match[2]!, "base64") };
}

export function designOf(value: CardDesign | null | undefined): CardDesign {
  return { ...DEFAULT_CARD_DESIGN, ...(value ?? {}) };
}

export function openNow(weekly: WeeklyHours, closures: Closure[], tz: string, now = new Date()) {
  const state = openStateAt(weekly, closures, now, tz);
  return { isOpen: state.isOpen, label: openLabelFr(state, localParts(now, tz).date), hasHours: state.hasHours };
}

export { categoryLabelFr };

/** A map link that opens the phone's map app (geo position when pinned, else the address). */
export function mapUrl(s: { lat: number | null; lng: number | null; address: string; postalCode: string; city: string }): string {
  const query = s.lat != null && s.lng != null ? `${s.lat},${s.lng}` : `${s.address}, ${s.postalCode} ${s.city}`;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** drizzle wraps driver errors; the PostgreSQL SQLSTATE is on the error or its cause. */
export function pgErrorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 3 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  let e: unknown = error;
  for (let i = 0; i < 3 && e; i++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === "string") return c;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
