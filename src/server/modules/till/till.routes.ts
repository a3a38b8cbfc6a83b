import { Hono } from "hono";
import { describeRoute } from "hono-openapi";
import { z } from "zod";
import {
  apiKeyCreateSchema,
  IDEMPOTENCY_HEADER,
  tillCreditSchema,
  tillCustomerParam,
  tillRedeemSchema,
  zettleConnectSchema,
  zettleEventSchema,
} from "../../../domain/schemas/till.ts";
import type { AppEnv } from "../../lib/context.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys.service.ts";
import { idempotent, needs, type TillEnv, tillAuth } from "./till-middleware.ts";
import { listTillRewards, lookupTillCustomer, tillCredit, tillRedeem } from "./till.service.ts";
import { connectZettle, disconnectTill, receiveZettleEvent, tillConnectionStatus } from "./till-connector.service.ts";
import { emitRedeemedEvent, emitVisitEvents } from "../webhooks/webhooks.service.ts";

/**
 * /api/till: the API for tills and integrators (issue 29, ADR 0050), with a shop's API key
 * (`Authorization: Bearer fid_…`), no session. Writes carry an Idempotency-Key header.
 */

/** What /api/openapi.json says of every till route: its security scheme and its tag. */
const TILL_DOC = { tags: ["till"], security: [{ tillKey: [] }] };
const IDEMPOTENCY_PARAMETER = {
  name: IDEMPOTENCY_HEADER,
  in: "header" as const,
  required: true,
  description: "Une clé unique par opération (un UUID) : une requête renvoyée avec la même clé ne crédite qu'une fois.",
  schema: { type: "string" as const, pattern: "^[A-Za-z0-9_-]{8,100}$" },
  example: "5b0c9f6e-3f2a-4d51-9a57-8c2f1e0d7a64",
};
const json = (example: unknown, description: string) => ({
  description,
  content: { "application/json": { example } },
});
const CREDIT_EXAMPLE = {
  scanId: "0b7c6f1e-2d3c-4b5a-9e8f-7a6b5c4d3e2f",
  outcome: "accepted",
  accepted: true,
  message: "23 points ajoutés chez Épicerie Lune. Merci de votre visite !",
  shop: { id: "shop_123", name: "Épicerie Lune", slug: "epicerie-lune" },
  card: { id: "3f2e1d0c-9b8a-4c7d-8e6f-5a4b3c2d1e0f", mode: "points", balance: 123, lifetime: 250, progress: null },
  delta: 23,
  multiplier: 1,
  periodLabel: null,
  nextAt: "2026-11-26T18:40:00.000Z",
  amountCents: 2390,
  scannedAt: "2026-11-26T14:40:00.000Z",
};

const till = new Hono<TillEnv>()
  .use(tillAuth)
  .get(
    "/customers/:code",
    describeRoute({
      ...TILL_DOC,
      summary: "Retrouver un client par son code client",
      description: "Le code que le client affiche (Profil › Ma carte client). Droit : customers:read.",
      responses: {
        200: json(
          {
            customer: { firstName: "Camille" },
            card: { id: "3f2e…", mode: "points", balance: 123, lifetime: 250, visits: 9 },
          },
          "Le client et sa carte dans la boutique (null avant sa première visite)",
        ),
      },
    }),
    needs("customers:read"),
    validate("param", tillCustomerParam),
    async (c) => c.json(await lookupTillCustomer(c.get("deps").db, c.get("caller"), c.req.valid("param").code)),
  )
  .post(
    "/credits",
    describeRoute({
      ...TILL_DOC,
      summary: "Créditer un passage ou un montant",
      description:
        "Avec `amountCents`, une carte « selon le montant » donne ses points pour ce montant ; sans, un passage. " +
        "Mêmes règles qu'au comptoir (délai entre deux passages, limite du jour). Un refus est une réponse 200 avec " +
        "`accepted: false` et son `outcome`. Droit : visits:write.",
      parameters: [IDEMPOTENCY_PARAMETER],
      responses: { 200: json(CREDIT_EXAMPLE, "Le passage, crédité ou non, et pourquoi") },
    }),
    needs("visits:write"),
    idempotent,
    validate("json", tillCreditSchema),
    async (c) => {
      const deps = c.get("deps");
      const { answer, followUps } = await tillCredit(
        deps.database,
        c.get("caller"),
        c.req.valid("json"),
        c.get("idempotencyKey"),
      );
      await emitVisitEvents(deps, answer, "till", followUps);
      return c.json(answer);
    },
  )
  .get(
    "/rewards",
    describeRoute({
      ...TILL_DOC,
      summary: "Lister les récompenses",
      description: "Les récompenses actives de la boutique. Droit : rewards:read.",
      responses: {
        200: json(
          {
            rewards: [
              {
                id: "6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f",
                title: "Un café offert",
                cost: 100,
                stock: null,
                mode: "points",
              },
            ],
          },
          "Les récompenses",
        ),
      },
    }),
    needs("rewards:read"),
    async (c) => c.json({ rewards: await listTillRewards(c.get("deps").db, c.get("caller")) }),
  )
  .post(
    "/redemptions",
    describeRoute({
      ...TILL_DOC,
      summary: "Remettre une récompense",
      description:
        "Réserve la récompense sur la carte du client et la valide aussitôt (remise en caisse). Un refus (solde " +
        "insuffisant, épuisée…) est une 409 qui dit pourquoi. Droit : rewards:redeem.",
      parameters: [IDEMPOTENCY_PARAMETER],
      responses: {
        201: json(
          {
            redemption: { id: "9a8b…", title: "Un café offert", cost: 100, status: "validated" },
            card: { balance: 23 },
          },
          "La récompense remise",
        ),
      },
    }),
    needs("rewards:redeem"),
    idempotent,
    validate("json", tillRedeemSchema),
    async (c) => {
      const deps = c.get("deps");
      const caller = c.get("caller");
      const result = await tillRedeem(deps.database, caller, c.req.valid("json"), c.get("idempotencyKey"));
      if (result.redemption.status === "validated") await emitRedeemedEvent(deps, caller.shopId, result.redemption);
      return c.json(result, 201);
    },
  );

const hookParam = z.object({ hookId: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, "Adresse inconnue.") });

export const tillRoutes = new Hono<AppEnv>()
  .route("/till", till)
  // Zettle's Pusher API posts each purchase here, signed with the connection's key (ADR 0051): no session.
  .post("/connectors/zettle/:hookId", validate("param", hookParam), validate("json", zettleEventSchema), async (c) =>
    c.json(
      await receiveZettleEvent(
        c.get("deps"),
        c.req.valid("param").hookId,
        c.req.valid("json"),
        c.req.header("x-izettle-signature"),
      ),
    ),
  );

const keyParam = z.object({ keyId: z.string().uuid("Clé introuvable.") });

/** /api/backoffice/shops/:shopId/api-keys: the owner's keys (created, listed with last use, revoked). */
export const tillManageRoutes = new Hono<ShopEnv>()
  .get("/api-keys", ownerOnly, async (c) => c.json({ keys: await listApiKeys(c.get("deps").db, c.get("access")) }))
  .post("/api-keys", ownerOnly, validate("json", apiKeyCreateSchema), async (c) =>
    c.json(await createApiKey(c.get("deps").db, c.get("access"), c.req.valid("json")), 201),
  )
  .post("/api-keys/:keyId/revoke", ownerOnly, validate("param", keyParam), async (c) =>
    c.json({ key: await revokeApiKey(c.get("deps").db, c.get("access"), c.req.valid("param").keyId) }),
  )
  // The till connector (ADR 0051): its state and last sales, connecting Zettle, disconnecting.
  .get("/till-connection", ownerOnly, async (c) => c.json(await tillConnectionStatus(c.get("deps"), c.get("access"))))
  .put("/till-connection/zettle", ownerOnly, validate("json", zettleConnectSchema), async (c) =>
    c.json(await connectZettle(c.get("deps"), c.get("access"), c.req.valid("json"))),
  )
  .delete("/till-connection", ownerOnly, async (c) => c.json(await disconnectTill(c.get("deps"), c.get("access"))));
