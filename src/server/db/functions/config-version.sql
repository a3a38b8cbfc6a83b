-- The scan path caches a shop's key, hours, double-points periods and VIP levels per process;
-- any change to them bumps shops.config_version, which fidele_scan checks (triggers in migrations 0002, 0006).
CREATE OR REPLACE FUNCTION fidele_shop_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.config_version := OLD.config_version + 1;
  RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION fidele_periods_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE shops SET config_version = config_version + 1 WHERE id = COALESCE(NEW.shop_id, OLD.shop_id);
  RETURN NULL;
END
$$;
