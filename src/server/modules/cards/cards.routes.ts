import { Hono } from "hono";
import { z } from "zod";
import {
  activityQuerySchema,
  scanClaimRequestSchema,
  scanRequestSchema,
  shortCodeRequestSchema,
} from "../../../domain/schemas/cards.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { getMyCard, listMyActivity, listMyCards } from "./cards.service.ts";
import { getMyPersonalCode, renewMyPersonalCode } from "./personal-code.service.ts";
import { resolveShortCode } from "./counter-codes.service.ts";
import { issueScanClaim, performScan } from "./scan.service.ts";

const cardParam = z.object({ cardId: z.string().uuid("Carte introuvable.") });

export const cardsRoutes = new Hono<AppEnv>()
  /**
   * A scan. Every recorded outcome answers 200 with `accepted` and a French
   * `message` (a refusal is an answer, not an error); a retry with the same
   * idempotency key gets the first answer again, flagged by `Idempotent-Replayed: true`.
   */
  .post("/scan", validate("json", scanRequestSchema), async (c) => {
    const user = currentUser(c);
    const input = c.req.valid("json");
    const { answer, replayed } = await performScan(c.get("deps").database, { userId: user.id, actorId: user.id }, input);
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json(answer);
  })
  /**
   * A counter code opened signed out: `{ claim, expiresAt }` to send with the scan once signed in (both null
   * when the code is not valid now). Open to anyone; limited per client address.
   */
  .post("/scan-claims", validate("json", scanClaimRequestSchema), async (c) => {
    const { db } = c.get("deps");
    await enforceThrottle(db, `scan-claim:ip:${c.get("clientIp")}`, 600, 30);
    return c.json(await issueScanClaim(db, c.req.valid("json")));
  })
  /**
   * The short code typed on /scanner (the QR's fallback): `{ scanUid, token }`, the counter code it stands for,
   * which the web app opens as if it had been scanned. Open to anyone; limited per client address (a code is
   * 30 bits: guessing one takes far more tries than the limit allows).
   */
  .post("/short-codes", validate("json", shortCodeRequestSchema), async (c) => {
    const { db } = c.get("deps");
    await enforceThrottle(db, `short-code:ip:${c.get("clientIp")}`, 600, 30);
    return c.json(await resolveShortCode(db, c.req.valid("json").code));
  })
  .get("/", async (c) => {
    const user = currentUser(c);
    return c.json({ cards: await listMyCards(c.get("deps").db, user.id) });
  })
  /** « Ma carte client »: my personal code (made on first sight), to show at a counter. */
  .get("/personal-code", async (c) => {
    const user = currentUser(c);
    return c.json({ personalCode: await getMyPersonalCode(c.get("deps").db, user.id) });
  })
  /** A new personal code; the old one stops working at once. */
  .post("/personal-code", async (c) => {
    const user = currentUser(c);
    const { db } = c.get("deps");
    await enforceThrottle(db, `personal-code-renew:user:${user.id}`, 3600, 10);
    return c.json({ personalCode: await renewMyPersonalCode(db, user.id) });
  })
  .get("/activity", validate("query", activityQuerySchema), async (c) => {
    const user = currentUser(c);
    return c.json(await listMyActivity(c.get("deps").db, user.id, c.req.valid("query")));
  })
  .get("/:cardId", validate("param", cardParam), async (c) => {
    const user = currentUser(c);
    return c.json(await getMyCard(c.get("deps").db, user.id, c.req.valid("param").cardId));
  });
