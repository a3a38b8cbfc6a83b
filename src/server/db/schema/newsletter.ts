import { index, pgTable, text } from "drizzle-orm/pg-core";
import { messageDeliveries } from "./messages.ts";
import { timestampNow, uuidPk } from "./columns.ts";

/**
 * What happened to marketing e-mail after it left: a hard bounce (an SMTP 5xx, or the
 * provider's bounce webhook), a complaint (marked as spam), or a one-click unsubscribe
 * (RFC 8058). An address with a hard bounce or a complaint is suppressed: it never
 * receives marketing e-mail again (audience.ts). `deliveryId` ties the event to the
 * campaign's figures when known. Addresses are stored lower-cased.
 */
export const emailEvents = pgTable(
  "email_events",
  {
    id: uuidPk(),
    email: text().notNull(),
    kind: text({ enum: ["hard_bounce", "complaint", "unsubscribe"] }).notNull(),
    deliveryId: text().references(() => messageDeliveries.id, { onDelete: "set null" }),
    detail: text(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.email, t.kind), index().on(t.deliveryId)],
);
