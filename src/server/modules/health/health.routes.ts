import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "../../lib/context.ts";

export const healthRoutes = new Hono<AppEnv>().get("/", async (c) => {
  const { database } = c.get("deps");
  await database.db.execute(sql`select 1`);
  return c.json({ status: "ok" as const, database: database.kind });
});
