import { Hono } from "hono";
import { unsetLegalDetails } from "../../env.ts";
import { type AppEnv, currentAdmin } from "../../lib/context.ts";
import { listOutbox } from "../mail/mail.service.ts";

export const adminRoutes = new Hono<AppEnv>()
  .get("/outbox", async (c) => {
    currentAdmin(c);
    return c.json({ messages: await listOutbox(c.get("deps").db) });
  })
  /** What the operator must still do, shown to the platform admin on the back-office pages. */
  .get("/notices", (c) => {
    currentAdmin(c);
    const unset = unsetLegalDetails(c.get("deps").env);
    const notices =
      unset.length > 0
        ? [
            {
              id: "legal-notice",
              message: `Les mentions légales affichent encore des valeurs d'exemple (« ${c.get("deps").env.LEGAL_ADDRESS} »…). Renseignez ${unset.join(", ")} dans l'environnement du serveur, puis redémarrez-le : la loi les exige sur un site public.`,
            },
          ]
        : [];
    return c.json({ notices });
  });
