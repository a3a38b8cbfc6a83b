-- Loyalty invariants that live in the database (docs/decisions/0010-scan-codes-and-ledger.md).

-- 1. The ledger is append-only: no UPDATE, DELETE or TRUNCATE, whoever connects.
CREATE OR REPLACE FUNCTION fidele_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION fidele_ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
  FOR EACH STATEMENT EXECUTE FUNCTION fidele_ledger_append_only();
--> statement-breakpoint

-- 2. A card's balance and lifetime total follow its ledger, in the same transaction.
--    The body is functions/ledger.sql's (ADR 0016, 0043), applied right after the migrations; here the function
--    only exists so the trigger can be created, and refuses to run before that body replaces it.
CREATE OR REPLACE FUNCTION fidele_ledger_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'fidele_ledger_apply: its body (functions/ledger.sql) is applied after the migrations'; END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_apply AFTER INSERT ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION fidele_ledger_apply();
--> statement-breakpoint

-- 3. The scan path caches a shop's key, hours and double-points periods per process;
--    any change to them bumps config_version, which the scan function checks.
--    The bodies are functions/config-version.sql's, as above.
CREATE OR REPLACE FUNCTION fidele_shop_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'fidele_shop_bump_version: its body (functions/config-version.sql) is applied after the migrations'; END
$$;
--> statement-breakpoint
CREATE TRIGGER shops_bump_version BEFORE UPDATE ON shops FOR EACH ROW
  WHEN (OLD.weekly_hours IS DISTINCT FROM NEW.weekly_hours OR OLD.closures IS DISTINCT FROM NEW.closures
     OR OLD.code_secret IS DISTINCT FROM NEW.code_secret OR OLD.scan_uid IS DISTINCT FROM NEW.scan_uid
     OR OLD.timezone IS DISTINCT FROM NEW.timezone)
  EXECUTE FUNCTION fidele_shop_bump_version();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_periods_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'fidele_periods_bump_version: its body (functions/config-version.sql) is applied after the migrations'; END
$$;
--> statement-breakpoint
CREATE TRIGGER double_points_bump_version AFTER INSERT OR UPDATE OR DELETE ON double_points_periods
  FOR EACH ROW EXECUTE FUNCTION fidele_periods_bump_version();

-- 4. A scan in one round trip: fidele_scan, whose one home is functions/scan.sql. Until ADR 0043 this migration
--    held a first body of it, which no migration called and migration 0008 dropped (its arguments changed).
