import { sql } from "drizzle-orm";
import { text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";

// Column builders repeated across the tables. Each call makes a new builder: drizzle binds a builder to the one table
// it is placed in, so a builder object must never be shared.

/** A text primary key the database fills with a random UUID. */
export const uuidPk = () => text().primaryKey().default(sql`gen_random_uuid()::text`);

/** An instant that defaults to the insert's (created, updated, granted…). */
export const timestampNow = () => timestamp({ withTimezone: true }).notNull().defaultNow();

/** The person a row belongs to, erased with their account. */
export const userRef = () =>
  text()
    .notNull()
    .references(() => user.id, { onDelete: "cascade" });
