import { createMiddleware } from "hono/factory";
import { recordAudit } from "./audit.ts";
import type { ShopEnv } from "./shop-access.ts";

/**
 * Settings changes of a shop's back-office go to the audit log (/admin/logs), once, here: every successful write
 * under /api/backoffice/shops/:shopId to one of the settings below is recorded as `settings.update` with the
 * section changed (never the values: a page may carry photos, the legal page personal names). A till's keys count as
 * settings: an API key made or revoked, a webhook address added or removed, a new receipt key.
 */
const SETTINGS =
  /\/api\/backoffice\/shops\/[^/]+\/(page|legal|hours|card|code-secret|double-points|reward-settings|vip-tiers|automations|api-keys|webhooks|receipt-key)(\/[^/]+)?(\/revoke)?$/;
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const auditSettings = createMiddleware<ShopEnv>(async (c, next) => {
  await next();
  if (!WRITES.has(c.req.method) || c.res.status >= 400) return;
  const section = SETTINGS.exec(c.req.path)?.[1];
  if (!section) return;
  const access = c.get("access");
  await recordAudit(c.get("deps").db, {
    actorId: access.userId,
    shopId: access.shopId,
    action: "settings.update",
    target: access.shopId,
    details: { section, method: c.req.method },
    ip: c.get("clientIp") ?? null,
  });
});
