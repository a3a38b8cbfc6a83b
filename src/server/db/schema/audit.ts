import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { session } from "./auth.ts";
import { timestampNow, uuidPk } from "./columns.ts";

/**
 * The audit log of privileged actions (SPEC §6, /admin/logs): append-only — the application only inserts
 * (src/server/lib/audit.ts) and never updates or deletes a row. Actor and shop are plain ids, not foreign keys,
 * so that a row outlives the account or shop it names.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuidPk(),
    actorId: text(),
    shopId: text(),
    /** A dotted verb: "points.adjust", "shop.suspend", "member.role", "export.customers", "contest.draw", "admin.signin"… */
    action: text().notNull(),
    /** What the action was done to: a card id, a user id, a shop id… */
    target: text(),
    details: jsonb().$type<Record<string, unknown>>(),
    ip: text(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.createdAt), index().on(t.shopId, t.createdAt), index().on(t.action, t.createdAt)],
);

/**
 * Where a session was opened, roughly (/admin/sessions, docs/decisions/0028-approximate-place.md): the browser's
 * IANA time zone, sent with the first heartbeat, and the address cut to its network (/24, /48). No geo-IP database.
 */
export const sessionPlaces = pgTable("session_places", {
  sessionId: text()
    .primaryKey()
    .references(() => session.id, { onDelete: "cascade" }),
  timeZone: text(),
  network: text(),
  createdAt: timestampNow(),
});
