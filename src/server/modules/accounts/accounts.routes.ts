import { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { profileSchema, signUpSchema } from "../../../domain/schemas/accounts.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { getMe, saveProfile, signUp, touchLastSeen } from "./accounts.service.ts";

/** Sign-up, plus where to go once the address is confirmed (kept only when it is a path of this site). */
const signUpRequestSchema = signUpSchema.extend({ redirect: z.string().max(2048).optional() });

export const accountsRoutes = new Hono<AppEnv>()
  .post("/sign-up", validate("json", signUpRequestSchema), async (c) => {
    const input = c.req.valid("json");
    const { db } = c.get("deps");
    // Each sign-up sends a mail: limit per address (known or not, alike) and per client.
    await enforceThrottle(db, `signup:email:${input.email}`, 3600, 3);
    await enforceThrottle(db, `signup:ip:${c.get("clientIp")}`, 3600, 30);
    return c.json(await signUp(c.get("deps"), input));
  })
  .get("/me", async (c) => {
    const user = c.get("user");
    if (!user) return c.json({ me: null });
    const me = await getMe(c.get("deps").db, user.id);
    if (!me) throw new AppError("UNAUTHENTICATED");
    return c.json({ me });
  })
  .put("/profile", validate("json", profileSchema), async (c) => {
    const user = currentUser(c);
    await saveProfile(c.get("deps").db, user.id, c.req.valid("json"));
    return c.json({ ok: true as const });
  })
  .post("/heartbeat", async (c) => {
    await touchLastSeen(c.get("deps").db, currentUser(c).id);
    return c.body(null, 204);
  });
