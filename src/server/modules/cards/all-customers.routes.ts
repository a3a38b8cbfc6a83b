import { Hono } from "hono";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { validate } from "../../lib/validate.ts";
import { recordAudit } from "../../lib/audit.ts";
import { allCustomersCsv, allCustomersQuerySchema, listAllCustomers } from "./all-customers.service.ts";

/** /api/backoffice/customers: every customer of the shops the person owns (the platform admin: all shops). */
export const allCustomersRoutes = new Hono<AppEnv>()
  .get("/", validate("query", allCustomersQuerySchema), async (c) => {
    const user = currentUser(c);
    const viewer = { id: user.id, isAdmin: user.role === "admin" };
    return c.json(await listAllCustomers(c.get("deps").db, viewer, c.req.valid("query")));
  })
  .get("/export.csv", validate("query", allCustomersQuerySchema), async (c) => {
    const user = currentUser(c);
    const viewer = { id: user.id, isAdmin: user.role === "admin" };
    const body = await allCustomersCsv(c.get("deps").db, viewer, c.req.valid("query"));
    await recordAudit(c.get("deps").db, { actorId: user.id, action: "export.customers", details: { scope: "all-shops" }, ip: c.get("clientIp") ?? null });
    return c.body(body, 200, {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="tous-les-clients.csv"',
      "cache-control": "no-store",
    });
  });
