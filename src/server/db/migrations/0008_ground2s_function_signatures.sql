-- The database functions now live in src/server/db/functions/*.sql, applied after the migrations at every
-- start. Their arguments changed: the old ones are dropped here, once (CREATE OR REPLACE cannot change them).
--   fidele_scan: the visit's multiplier candidates (jsonb) replace p_multiplier and p_period_label;
--   fidele_redemption_close, fidele_expire_redemptions: the refund's words come from TypeScript.
DROP FUNCTION IF EXISTS fidele_scan(text, text, text, text, text, text, integer, integer, text, boolean, text, integer, integer);
--> statement-breakpoint
DROP FUNCTION IF EXISTS fidele_expire_redemptions(integer, text, text);
--> statement-breakpoint
DROP FUNCTION IF EXISTS fidele_redemption_close(text, text, text, text, text, text);
--> statement-breakpoint
-- VIP levels are part of the config the scan path caches: a change bumps the shop's config_version.
CREATE TRIGGER vip_tiers_bump_version AFTER INSERT OR UPDATE OR DELETE ON vip_tiers
  FOR EACH ROW EXECUTE FUNCTION fidele_periods_bump_version();
