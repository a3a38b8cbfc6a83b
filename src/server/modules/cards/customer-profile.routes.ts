import { Hono } from "hono";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { getProfileView } from "./customer-profile.service.ts";

/** GET /api/profiles/:id — a person as the viewer may see them (customer-profile.service.ts); else the one 404. */
export const profilesRoutes = new Hono<AppEnv>().get("/:id", async (c) => {
  const viewer = currentUser(c);
  return c.json({ profile: await getProfileView(c.get("deps").db, viewer.id, c.req.param("id")) });
});
