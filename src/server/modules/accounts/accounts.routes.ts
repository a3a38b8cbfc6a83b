import { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { signUpSchema } from "../../../domain/schemas/accounts.ts";
import { profileSchema } from "../../../domain/schemas/profile.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { getMe, saveProfile, signUp, touchLastSeen } from "./accounts.service.ts";
import { recordSessionPlace } from "./session-place.service.ts";
import { consentHistory, eraseAccount, exportArchive } from "./rgpd.service.ts";
import { sendEraseCode } from "./erase-code.service.ts";
import { recordAudit } from "../../lib/audit.ts";

/** Sign-up, plus where to go once the address is confirmed (kept only when it is a path of this site). */
const signUpRequestSchema = signUpSchema.extend({ redirect: z.string().max(2048).optional() });

/** « Supprimer mon compte » is confirmed by the password, or by a code sent by e-mail (erase-code.service.ts). */
const eraseSchema = z.union(
  [
    z.object({
      password: z.string({ error: "Saisissez votre mot de passe." }).min(1, "Saisissez votre mot de passe.").max(128),
    }),
    z.object({
      code: z
        .string()
        .trim()
        .regex(/^\d{6}$/, "Le code reçu par e-mail a 6 chiffres."),
    }),
  ],
  { error: "Saisissez votre mot de passe ou le code reçu par e-mail." },
);

const accounts = new Hono<AppEnv>()
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
  /* RGPD (issue 16): everything about me in one archive, my consent history, and erasing my account. */
  .get("/me/export", async (c) => {
    const user = currentUser(c);
    const { db, env } = c.get("deps");
    await enforceThrottle(db, `export:${user.id}`, 3600, 10);
    const { zip, filename } = await exportArchive(db, user.id, { env });
    await recordAudit(db, { actorId: user.id, action: "export.personal", target: user.id });
    return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    });
  })
  .get("/me/consents", async (c) => {
    const user = currentUser(c);
    return c.json({ consents: await consentHistory(c.get("deps").db, user.id) });
  })
  .delete("/me", validate("json", eraseSchema), async (c) => {
    const user = currentUser(c);
    const deps = c.get("deps");
    await enforceThrottle(deps.db, `erase:${user.id}`, 3600, 5);
    const result = await eraseAccount(deps, user.id, c.req.valid("json"));
    return c.json({ ok: true as const, ...result });
  })
  .post("/me/erase-code", async (c) => {
    const user = currentUser(c);
    const deps = c.get("deps");
    // Each sends a mail: a few an hour, and one a minute.
    await enforceThrottle(deps.db, `erase-code:${user.id}`, 3600, 3);
    await enforceThrottle(deps.db, `erase-code-minute:${user.id}`, 60, 1);
    return c.json({ ok: true as const, ...(await sendEraseCode(deps, user.id)) });
  })
  .post("/heartbeat", async (c) => {
    const { db } = c.get("deps");
    await touchLastSeen(db, currentUser(c).id);
    // The session's approximate place, once (ADR 0028): the browser's time zone, the address cut to its network.
    const sessionId = c.get("session")?.id;
    if (sessionId) await recordSessionPlace(db, sessionId, c.req.header("x-time-zone"), c.get("clientIp"));
    return c.body(null, 204);
  });

/** The accounts module's routes (it has no part in a shop's back office): /api/accounts. */
export const accountsRoutes = new Hono<AppEnv>().route("/accounts", accounts);
