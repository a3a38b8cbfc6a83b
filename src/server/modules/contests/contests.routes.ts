import { type Context, Hono } from "hono";
import { z } from "zod";
import { WINNING_STATUSES } from "../../../domain/contests/contests.ts";
import {
  contestInputSchema,
  enterSchema,
  featuredSlotSchema,
  prizeLotInputSchema,
} from "../../../domain/contests/schemas.ts";
import { AppError } from "../../../domain/errors.ts";
import { type AppEnv, currentAdmin, currentUser } from "../../lib/context.ts";
import { enforceThrottle, refundThrottle } from "../../lib/throttle.ts";
import { entryNetwork } from "../../../domain/contests/one-person.ts";
import { recordAudit } from "../../lib/audit.ts";
import { photoBodyLimit } from "../../lib/body-size.ts";
import { validate } from "../../lib/validate.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import {
  createContest,
  deleteContest,
  getOwnerContest,
  getPublishedRules,
  listOwnerContests,
  scheduleContest,
  updateContest,
} from "./contests.service.ts";
import { drawContest, notifyWinners } from "./draw.service.ts";
import { enterDraw, type Player, spinWheel } from "./entries.service.ts";
import { listEntrantGroups } from "./one-person.service.ts";
import {
  archiveLot,
  createLot,
  handOverWinning,
  listLots,
  listWinnings,
  lookupWinning,
  updateLot,
  winningsCsv,
} from "./lots.service.ts";
import {
  getFeatured,
  getPublicContest,
  getPublishedDraw,
  listOpenContests,
  myContests,
  setFeatured,
} from "./play.service.ts";

const idParam = z.object({ id: z.string().uuid("Jeu concours introuvable.") });
const lotParam = z.object({ lotId: z.string().uuid("Lot introuvable.") });
const winningParam = z.object({ id: z.string().uuid("Lot introuvable.") });
const slotParam = z.object({ slot: featuredSlotSchema });
const nearQuery = z.object({
  lat: z.coerce.number().min(-90).max(90).optional(),
  lng: z.coerce.number().min(-180).max(180).optional(),
});
const winningsQuery = z.object({
  q: z.string().max(100).optional(),
  status: z.enum([...WINNING_STATUSES, "all"]).default("all"),
});
const codeQuery = z.object({ code: z.string().min(1, "Saisissez le code.").max(40) });
const rulesQuery = z.object({ version: z.coerce.number().int().min(1).optional() });
const featuredBody = z.object({ contestId: z.string().uuid("Jeu concours introuvable.").nullable() });

/** Taking part is throttled per person like sign-in attempts (database-backed, shared by every process). */
const PLAY_WINDOW_SECONDS = 60;
const PLAY_MAX = 20;

/**
 * Won-lot codes looked up at the counter (issue 22 row 9, ADR 0033): 20 misses per staff account and shop in 10
 * minutes; a code found is given back (a hit does not count). With 1,000 lots waiting among 31^6 codes, guessing
 * at that pace finds one about every 300 days per account, instead of every few hours.
 */
const LOOKUP_WINDOW_SECONDS = 600;
const LOOKUP_MAX_MISSES = 20;

/** The person taking part, as best the app can tell (src/domain/contests/one-person.ts). */
const playerOf = (c: Context<AppEnv>, userId: string, deviceId: string | null): Player => ({
  userId,
  deviceId,
  network: entryNetwork(c.get("clientIp")),
});

/** The contests module's routes outside a shop's back office: /api/contests (shoppers, the public page, featured pages). */
export const contestsRoutes = new Hono<AppEnv>()
  .get("/contests", validate("query", nearQuery), async (c) => {
    const { lat, lng } = c.req.valid("query");
    const near = lat !== undefined && lng !== undefined ? { lat, lng } : null;
    return c.json(await listOpenContests(c.get("deps").db, c.get("user")?.id ?? null, near));
  })
  .get("/contests/mine", async (c) => {
    const user = currentUser(c);
    return c.json(await myContests(c.get("deps").db, user.id));
  })
  .get("/contests/featured/:slot", validate("param", slotParam), async (c) => {
    return c.json(await getFeatured(c.get("deps").db, c.req.valid("param").slot, c.get("user")?.id ?? null));
  })
  .put("/contests/featured/:slot", validate("param", slotParam), validate("json", featuredBody), async (c) => {
    currentAdmin(c);
    return c.json(await setFeatured(c.get("deps").db, c.req.valid("param").slot, c.req.valid("json").contestId));
  })
  .get("/contests/:id", validate("param", idParam), async (c) => {
    return c.json(await getPublicContest(c.get("deps").db, c.req.valid("param").id, c.get("user")?.id ?? null));
  })
  .get("/contests/:id/draw", validate("param", idParam), async (c) => {
    return c.json(await getPublishedDraw(c.get("deps").db, c.req.valid("param").id));
  })
  .get("/contests/:id/rules", validate("param", idParam), validate("query", rulesQuery), async (c) => {
    return c.json(await getPublishedRules(c.get("deps").db, c.req.valid("param").id, c.req.valid("query").version));
  })
  .post("/contests/:id/enter", validate("param", idParam), validate("json", enterSchema), async (c) => {
    const user = currentUser(c);
    const { db } = c.get("deps");
    const body = c.req.valid("json");
    await enforceThrottle(db, `contest:${user.id}`, PLAY_WINDOW_SECONDS, PLAY_MAX);
    return c.json(
      await enterDraw(db, playerOf(c, user.id, body.deviceId), c.req.valid("param").id, body.marketingConsent),
      201,
    );
  })
  .post("/contests/:id/spin", validate("param", idParam), validate("json", enterSchema), async (c) => {
    const user = currentUser(c);
    const deps = c.get("deps");
    const body = c.req.valid("json");
    await enforceThrottle(deps.db, `contest:${user.id}`, PLAY_WINDOW_SECONDS, PLAY_MAX);
    const result = await spinWheel(
      deps.db,
      playerOf(c, user.id, body.deviceId),
      c.req.valid("param").id,
      body.marketingConsent,
    );
    if (result.winning) {
      await notifyWinners({
        db: deps.db,
        mailer: deps.mailer,
        appUrl: deps.env.APP_URL,
        won: [{ winningId: result.winning.id, userId: user.id }],
        logger: deps.logger,
        jobs: deps.jobs,
      });
    }
    return c.json(result, 201);
  });

/** /api/backoffice/shops/:shopId/…: lots, winners, contests (mounted behind the one shopAccess guard). */
export const contestsManageRoutes = new Hono<ShopEnv>()
  /* Back office: lots */
  .get("/prize-lots", ownerOnly, async (c) => {
    const access = c.get("access");
    return c.json(await listLots(c.get("deps").db, access));
  })
  .post("/prize-lots", ownerOnly, photoBodyLimit, validate("json", prizeLotInputSchema), async (c) => {
    const access = c.get("access");
    return c.json({ lot: await createLot(c.get("deps").db, access, c.req.valid("json")) }, 201);
  })
  .put(
    "/prize-lots/:lotId",
    ownerOnly,
    photoBodyLimit,
    validate("param", lotParam),
    validate("json", prizeLotInputSchema),
    async (c) => {
      const { lotId } = c.req.valid("param");
      const access = c.get("access");
      return c.json({ lot: await updateLot(c.get("deps").db, access, lotId, c.req.valid("json")) });
    },
  )
  .delete("/prize-lots/:lotId", ownerOnly, validate("param", lotParam), async (c) => {
    const { lotId } = c.req.valid("param");
    const access = c.get("access");
    return c.json(await archiveLot(c.get("deps").db, access, lotId));
  })
  /* Back office: lots won, and the counter */
  .get("/contest-winnings", ownerOnly, validate("query", winningsQuery), async (c) => {
    const access = c.get("access");
    return c.json(await listWinnings(c.get("deps").db, access, c.req.valid("query")));
  })
  .get("/contest-winnings/export", ownerOnly, validate("query", winningsQuery), async (c) => {
    const access = c.get("access");
    const csv = await winningsCsv(c.get("deps").db, access, c.req.valid("query"));
    await recordAudit(c.get("deps").db, {
      actorId: access.userId,
      shopId: access.shopId,
      action: "export.winnings",
      ip: c.get("clientIp") ?? null,
    });
    return c.body(csv, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="lots-gagnes.csv"',
    });
  })
  .get("/contest-winnings/lookup", validate("query", codeQuery), async (c) => {
    const access = c.get("access");
    const { db } = c.get("deps");
    const key = `lot-lookup:${access.shopId}:${access.userId}`;
    await enforceThrottle(db, key, LOOKUP_WINDOW_SECONDS, LOOKUP_MAX_MISSES);
    const winning = await lookupWinning(db, access, c.req.valid("query").code);
    await refundThrottle(db, key);
    return c.json({ winning });
  })
  .post("/contest-winnings/:id/hand-over", validate("param", winningParam), async (c) => {
    const { id } = c.req.valid("param");
    const access = c.get("access");
    return c.json({ winning: await handOverWinning(c.get("deps").db, access, id) });
  })
  /* Back office: contests */
  .get("/contests", ownerOnly, async (c) => {
    const access = c.get("access");
    return c.json(await listOwnerContests(c.get("deps").db, access));
  })
  .post("/contests", ownerOnly, validate("json", contestInputSchema), async (c) => {
    const access = c.get("access");
    return c.json({ contest: await createContest(c.get("deps").db, access, c.req.valid("json")) }, 201);
  })
  .get("/contests/:id", ownerOnly, validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const access = c.get("access");
    return c.json({ contest: await getOwnerContest(c.get("deps").db, access, id) });
  })
  .put("/contests/:id", ownerOnly, validate("param", idParam), validate("json", contestInputSchema), async (c) => {
    const { id } = c.req.valid("param");
    const access = c.get("access");
    const deps = c.get("deps");
    return c.json({ contest: await updateContest(deps.db, access, id, c.req.valid("json"), deps.env.APP_URL) });
  })
  .delete("/contests/:id", ownerOnly, validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const access = c.get("access");
    return c.json(await deleteContest(c.get("deps").db, access, id));
  })
  /** Before the draw: the groups of linked accounts and whose entries the draw will set aside (règlement, art. 3). */
  .get("/contests/:id/groups", ownerOnly, validate("param", idParam), async (c) => {
    return c.json(await listEntrantGroups(c.get("deps").db, c.get("access"), c.req.valid("param").id));
  })
  .post("/contests/:id/schedule", ownerOnly, validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const access = c.get("access");
    const deps = c.get("deps");
    return c.json({ contest: await scheduleContest(deps.db, access, id, deps.env.APP_URL) });
  })
  /** "Tirer au sort": the owner's button after the closing time; the same exactly-once draw as the background pass. */
  .post("/contests/:id/draw", ownerOnly, validate("param", idParam), async (c) => {
    const { id } = c.req.valid("param");
    const access = c.get("access");
    const deps = c.get("deps");
    const now = new Date();
    const current = await getOwnerContest(deps.db, access, id, now);
    const phase = current.phase;
    if (current.kind !== "draw") throw new AppError("CONFLICT", { userMessage: "Une roue n'a pas de tirage." });
    if (phase !== "closed")
      throw new AppError("CONFLICT", {
        userMessage:
          phase === "drawn"
            ? "Ce jeu a déjà été tiré au sort."
            : "Le tirage n'est possible qu'après la clôture du jeu.",
      });
    const won = await drawContest({ db: deps.db, contestId: id, now });
    if (!won) throw new AppError("CONFLICT", { userMessage: "Ce jeu a déjà été tiré au sort." });
    await notifyWinners({
      db: deps.db,
      mailer: deps.mailer,
      appUrl: deps.env.APP_URL,
      won,
      logger: deps.logger,
      jobs: deps.jobs,
    });
    return c.json({ contest: await getOwnerContest(deps.db, access, id) });
  });
