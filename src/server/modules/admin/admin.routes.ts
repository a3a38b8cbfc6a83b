import { Hono } from "hono";
import { type AppEnv, currentAdmin } from "../../lib/context.ts";
import { listOutbox } from "../mail/mail.service.ts";

export const adminRoutes = new Hono<AppEnv>().get("/outbox", async (c) => {
  currentAdmin(c);
  return c.json({ messages: await listOutbox(c.get("deps").db) });
});
