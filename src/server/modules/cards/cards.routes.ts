import { Hono } from "hono";
import { z } from "zod";
import { emailSchema } from "../../../domain/schemas/accounts.ts";
import {
  activityQuerySchema,
  adjustmentSchema,
  adjustmentsQuerySchema,
  creditVisitSchema,
  customersQuerySchema,
  dashboardQuerySchema,
  receiptRequestSchema,
  scanClaimRequestSchema,
  scanRequestSchema,
  scansQuerySchema,
  shortCodeRequestSchema,
} from "../../../domain/schemas/cards.ts";
import { cardSettingsSchema, doublePointsSchema } from "../../../domain/schemas/shops.ts";
import { recordAudit } from "../../lib/audit.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { listAdjustments } from "./adjustments-feed.service.ts";
import { adjustCard, decideAdjustmentRequest } from "./adjustments.service.ts";
import { allCustomersCsv, allCustomersQuerySchema, listAllCustomers } from "./all-customers.service.ts";
import {
  createDoublePoints,
  deleteDoublePoints,
  getCardSettings,
  listDoublePoints,
  renewCodeSecret,
  updateCardSettings,
  updateDoublePoints,
} from "./card-settings.service.ts";
import { getMyCard, listMyActivity, listMyCards } from "./cards.service.ts";
import { getCodesAhead, resolveShortCode } from "./counter-codes.service.ts";
import { creditVisit, getReaderCode, lookupCustomer } from "./counter.service.ts";
import { getProfileView, saveCustomerNote } from "./customer-profile.service.ts";
import { customersCsv, getCustomer, listCustomers } from "./customers.service.ts";
import { csvResponse } from "../../lib/list-page.ts";
import { getDashboard } from "./dashboard.service.ts";
import { getRetention } from "./retention.service.ts";
import { getMyPersonalCode, renewMyPersonalCode } from "./personal-code.service.ts";
import { emitVisitEvents } from "../webhooks/webhooks.service.ts";
import { claimReceipt, renewReceiptKey } from "./receipts.service.ts";
import { issueScanClaim, performScan } from "./scan.service.ts";
import { queueReferralRelease } from "../referrals/release.service.ts";
import { listScans, listTodayScans, scansCsv } from "./scans-list.service.ts";

const myCardParam = z.object({ cardId: z.string().uuid("Carte introuvable.") });
const customerParam = z.object({ cardId: z.string().uuid("Client introuvable.") });
const periodParam = z.object({ periodId: z.string().uuid("Opération introuvable.") });
const adjustmentParam = z.object({ adjustmentId: z.string().uuid("Correction introuvable.") });
const lookupQuery = z.object({ email: emailSchema });
const personParam = z.object({ userId: z.string().min(1).max(100) });
const noteSchema = z.object({ note: z.string().max(2000, "La note tient en 2 000 caractères au plus.") });

/** /api/cards: the shopper's cards, scans and personal code. */
const cards = new Hono<AppEnv>()
  /**
   * A scan. Every recorded outcome answers 200 with `accepted` and a French
   * `message` (a refusal is an answer, not an error); a retry with the same
   * idempotency key gets the first answer again, flagged by `Idempotent-Replayed: true`.
   */
  .post("/scan", validate("json", scanRequestSchema), async (c) => {
    const user = currentUser(c);
    const input = c.req.valid("json");
    const deps = c.get("deps");
    const { answer, replayed, followUps } = await performScan(
      deps.database,
      { userId: user.id, actorId: user.id },
      input,
    );
    if (answer.accepted && !replayed)
      await queueReferralRelease(deps, { shopId: answer.shop?.id ?? null, waitingReferral: followUps.waitingReferral });
    if (replayed) c.header("Idempotent-Replayed", "true");
    else await emitVisitEvents(deps, answer, input.token ? "rotating" : "poster", followUps);
    return c.json(answer);
  })
  /**
   * A receipt code (issue 29, ADR 0053): the amount it carries, credited once under the card's rules; the answer
   * has the shape of a scan's. Forged codes are limited per person and per address.
   */
  .post("/receipt", validate("json", receiptRequestSchema), async (c) => {
    const user = currentUser(c);
    const deps = c.get("deps");
    const { answer, replayed, followUps } = await claimReceipt(
      deps.database,
      user.id,
      c.req.valid("json"),
      c.get("clientIp"),
    );
    if (replayed) c.header("Idempotent-Replayed", "true");
    else await emitVisitEvents(deps, answer, "receipt", followUps);
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
  .get("/:cardId", validate("param", myCardParam), async (c) => {
    const user = currentUser(c);
    return c.json(await getMyCard(c.get("deps").db, user.id, c.req.valid("param").cardId));
  });

/** GET /api/profiles/:id — a person as the viewer may see them (customer-profile.service.ts); else the one 404. */
const profiles = new Hono<AppEnv>().get("/:id", async (c) => {
  const viewer = currentUser(c);
  return c.json({ profile: await getProfileView(c.get("deps").db, viewer.id, c.req.param("id")) });
});

/** /api/backoffice/customers: every customer of the shops the person owns (the platform admin: all shops). */
const allCustomers = new Hono<AppEnv>()
  .get("/", validate("query", allCustomersQuerySchema), async (c) => {
    const user = currentUser(c);
    const viewer = { id: user.id, isAdmin: user.role === "admin" };
    return c.json(await listAllCustomers(c.get("deps").db, viewer, c.req.valid("query")));
  })
  .get("/export.csv", validate("query", allCustomersQuerySchema), async (c) => {
    const user = currentUser(c);
    const viewer = { id: user.id, isAdmin: user.role === "admin" };
    const body = await allCustomersCsv(c.get("deps").db, viewer, c.req.valid("query"));
    await recordAudit(c.get("deps").db, {
      actorId: user.id,
      action: "export.customers",
      details: { scope: "all-shops" },
      ip: c.get("clientIp") ?? null,
    });
    return c.body(body, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="tous-les-clients.csv"',
      "cache-control": "no-store",
    });
  });

/** The cards module's routes outside a shop's back office: /api/cards, /api/profiles, /api/backoffice/customers. */
export const cardsRoutes = new Hono<AppEnv>()
  .route("/cards", cards)
  .route("/profiles", profiles)
  .route("/backoffice/customers", allCustomers);

/**
 * /api/backoffice/shops/:shopId/…: the counter (staff), the card's rules, customers and scans (owner).
 * The shop access is resolved once by the sub-router (lib/shop-access.ts).
 */
export const cardsManageRoutes = new Hono<ShopEnv>()
  // — any member of the shop: the counter —
  .get("/reader/ahead", async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await getCodesAhead(db, c.get("access"), env.APP_URL));
  })
  .get("/reader", async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await getReaderCode(db, c.get("access"), env.APP_URL));
  })
  .get("/today", async (c) => c.json(await listTodayScans(c.get("deps").db, c.get("access"))))
  .get("/lookup", validate("query", lookupQuery), async (c) => {
    return c.json({ customer: await lookupCustomer(c.get("deps").db, c.get("access"), c.req.valid("query").email) });
  })
  .post("/credit", validate("json", creditVisitSchema), async (c) => {
    const deps = c.get("deps");
    const { answer, replayed, followUps, customer } = await creditVisit(
      deps.database,
      c.get("access"),
      c.req.valid("json"),
      c.get("clientIp"),
    );
    if (answer.accepted && !replayed)
      await queueReferralRelease(deps, { shopId: answer.shop?.id ?? null, waitingReferral: followUps.waitingReferral });
    if (replayed) c.header("Idempotent-Replayed", "true");
    else await emitVisitEvents(deps, answer, "staff", followUps);
    return c.json({ ...answer, customer });
  })
  .post("/adjust", validate("json", adjustmentSchema), async (c) => {
    const { replayed, ...result } = await adjustCard(c.get("deps").db, c.get("access"), c.req.valid("json"));
    if (replayed) c.header("Idempotent-Replayed", "true");
    // 202: a team member's correction beyond the cap waits for the owner or a manager (ADR 0036).
    return c.json(result, replayed ? 200 : result.status === "pending" ? 202 : 201);
  })
  // — owner (or shop admin, or platform admin) —
  .get("/dashboard", ownerOnly, validate("query", dashboardQuerySchema), async (c) => {
    return c.json(await getDashboard(c.get("deps").db, c.get("access"), c.req.valid("query").days));
  })
  .get("/retention", ownerOnly, async (c) => c.json(await getRetention(c.get("deps").db, c.get("access"), new Date())))
  /* The corrections' feed, and the owner's or a manager's word on the waiting ones (ADR 0036). */
  .get("/adjustments", ownerOnly, validate("query", adjustmentsQuerySchema), async (c) => {
    return c.json(await listAdjustments(c.get("deps").db, c.get("access"), c.req.valid("query")));
  })
  .post("/adjustments/:adjustmentId/approve", ownerOnly, validate("param", adjustmentParam), async (c) => {
    const id = c.req.valid("param").adjustmentId;
    return c.json(await decideAdjustmentRequest(c.get("deps").db, c.get("access"), id, "approve"));
  })
  .post("/adjustments/:adjustmentId/refuse", ownerOnly, validate("param", adjustmentParam), async (c) => {
    const id = c.req.valid("param").adjustmentId;
    return c.json(await decideAdjustmentRequest(c.get("deps").db, c.get("access"), id, "refuse"));
  })
  .get("/card", ownerOnly, async (c) => c.json({ card: await getCardSettings(c.get("deps").db, c.get("access")) }))
  .put("/card", ownerOnly, validate("json", cardSettingsSchema), async (c) => {
    return c.json({ card: await updateCardSettings(c.get("deps").db, c.get("access"), c.req.valid("json")) });
  })
  .post("/code-secret", ownerOnly, async (c) => c.json(await renewCodeSecret(c.get("deps").db, c.get("access"))))
  /** A new receipt key for the till (shown once; ADR 0053). */
  .post("/receipt-key", ownerOnly, async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await renewReceiptKey(db, c.get("access"), env.APP_URL));
  })
  .get("/double-points", ownerOnly, async (c) => {
    return c.json({ periods: await listDoublePoints(c.get("deps").db, c.get("access")) });
  })
  .post("/double-points", ownerOnly, validate("json", doublePointsSchema), async (c) => {
    return c.json({ period: await createDoublePoints(c.get("deps").db, c.get("access"), c.req.valid("json")) }, 201);
  })
  .put(
    "/double-points/:periodId",
    ownerOnly,
    validate("param", periodParam),
    validate("json", doublePointsSchema),
    async (c) => {
      const { periodId } = c.req.valid("param");
      return c.json({
        period: await updateDoublePoints(c.get("deps").db, c.get("access"), periodId, c.req.valid("json")),
      });
    },
  )
  .delete("/double-points/:periodId", ownerOnly, validate("param", periodParam), async (c) => {
    await deleteDoublePoints(c.get("deps").db, c.get("access"), c.req.valid("param").periodId);
    return c.json({ ok: true as const });
  })
  .get("/customers", ownerOnly, validate("query", customersQuerySchema), async (c) => {
    return c.json(await listCustomers(c.get("deps").db, c.get("access"), c.req.valid("query")));
  })
  .get("/customers.csv", ownerOnly, validate("query", customersQuerySchema), async (c) => {
    const file = await customersCsv(c.get("deps").db, c.get("access"), c.req.valid("query"));
    return csvResponse(file.body, file.filename);
  })
  /* The shop's private note about a customer (/profile/{id}): any team member, for a customer of this shop. */
  .put("/customers/:userId/note", validate("param", personParam), validate("json", noteSchema), async (c) => {
    const { userId } = c.req.valid("param");
    return c.json(await saveCustomerNote(c.get("deps").db, c.get("access"), userId, c.req.valid("json").note));
  })
  .get("/customers/:cardId", ownerOnly, validate("param", customerParam), async (c) => {
    return c.json(await getCustomer(c.get("deps").db, c.get("access"), c.req.valid("param").cardId));
  })
  .get("/scans", ownerOnly, validate("query", scansQuerySchema), async (c) => {
    return c.json(await listScans(c.get("deps").db, c.get("access"), c.req.valid("query")));
  })
  .get("/scans.csv", ownerOnly, validate("query", scansQuerySchema), async (c) => {
    const file = await scansCsv(c.get("deps").db, c.get("access"), c.req.valid("query"));
    return csvResponse(file.body, file.filename);
  });
