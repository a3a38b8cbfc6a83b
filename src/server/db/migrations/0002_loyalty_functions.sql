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
--    Lifetime counts what was earned (LIFETIME_KINDS in src/domain/loyalty/ledger.ts).
CREATE OR REPLACE FUNCTION fidele_ledger_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cards SET
    balance = balance + NEW.delta,
    lifetime = lifetime + CASE WHEN NEW.kind IN ('scan', 'bonus', 'double_points', 'adjustment') THEN NEW.delta ELSE 0 END,
    updated_at = now()
  WHERE id = NEW.card_id AND shop_id = NEW.shop_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ledger entry for card % does not match shop %', NEW.card_id, NEW.shop_id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_apply AFTER INSERT ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION fidele_ledger_apply();
--> statement-breakpoint

-- 3. The scan path caches a shop's key, hours and double-points periods per process;
--    any change to them bumps config_version, which the scan function checks.
CREATE OR REPLACE FUNCTION fidele_shop_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.config_version := OLD.config_version + 1;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER shops_bump_version BEFORE UPDATE ON shops FOR EACH ROW
  WHEN (OLD.weekly_hours IS DISTINCT FROM NEW.weekly_hours OR OLD.closures IS DISTINCT FROM NEW.closures
     OR OLD.code_secret IS DISTINCT FROM NEW.code_secret OR OLD.scan_uid IS DISTINCT FROM NEW.scan_uid
     OR OLD.timezone IS DISTINCT FROM NEW.timezone)
  EXECUTE FUNCTION fidele_shop_bump_version();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fidele_periods_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE shops SET config_version = config_version + 1 WHERE id = COALESCE(NEW.shop_id, OLD.shop_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER double_points_bump_version AFTER INSERT OR UPDATE OR DELETE ON double_points_periods
  FOR EACH ROW EXECUTE FUNCTION fidele_periods_bump_version();
--> statement-breakpoint

-- 4. A scan in one round trip. The caller (src/server/modules/cards/scan.service.ts) has
--    checked the code's signature with the shop key it caches, and computed the
--    double-points multiplier and the opening-hours flag from the same cached
--    config (p_config_version). Here, under the card's row lock: idempotency,
--    shop status, poster rule, cooldown and daily cap (checkVisit in
--    src/domain/loyalty/scan-rules.ts), the card, the ledger entry and the scan row.
--    Returns the answer as jsonb; a retry with the same key gets the first answer.
CREATE OR REPLACE FUNCTION fidele_scan(
  p_actor_id text,
  p_user_id text,
  p_scan_uid text,
  p_key text,
  p_method text,
  p_code text,
  p_config_version integer,
  p_multiplier integer,
  p_period_label text,
  p_outside_hours boolean,
  p_device_id text,
  p_shared_device_accounts integer,
  p_shared_device_days integer
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := now();
  v_existing jsonb;
  v_shop record;
  v_card_id text;
  v_balance integer;
  v_lifetime integer;
  v_last_scan_at timestamptz;
  v_day_key date;
  v_outcome text;
  v_today date;
  v_next timestamptz;
  v_day_count integer;
  v_delta integer := 0;
  v_multiplier integer := 1;
  v_flags text[] := '{}';
  v_scan_id text := gen_random_uuid()::text;
  v_response jsonb;
  v_inserted text;
BEGIN
  SELECT response INTO v_existing FROM scans WHERE actor_id = p_actor_id AND idempotency_key = p_key;
  IF FOUND THEN
    RETURN v_existing || '{"replayed": true}'::jsonb;
  END IF;

  SELECT id, name, slug, status, timezone, card_mode, stamps_goal, points_per_visit, cooldown_minutes,
         daily_cap, allow_static_poster, config_version
    INTO v_shop FROM shops WHERE scan_uid = p_scan_uid;
  IF NOT FOUND THEN
    v_outcome := 'unknown_shop';
  ELSIF p_config_version IS DISTINCT FROM v_shop.config_version THEN
    RETURN jsonb_build_object('outcome', 'config_changed');
  ELSIF v_shop.status <> 'active' THEN
    v_outcome := 'suspended';
  ELSIF p_method = 'poster' AND NOT v_shop.allow_static_poster THEN
    v_outcome := 'poster_disabled';
  ELSIF p_code = 'stale' THEN
    v_outcome := 'stale_code';
  ELSIF p_code <> 'valid' THEN
    v_outcome := 'invalid_code';
  END IF;

  IF v_outcome IS NULL THEN
    INSERT INTO cards (shop_id, user_id) VALUES (v_shop.id, p_user_id) ON CONFLICT (shop_id, user_id) DO NOTHING;
    SELECT id, balance, lifetime, last_scan_at, day_key, day_count
      INTO v_card_id, v_balance, v_lifetime, v_last_scan_at, v_day_key, v_day_count
      FROM cards WHERE shop_id = v_shop.id AND user_id = p_user_id FOR UPDATE;
    -- A twin request with the same key may have committed while we waited for the lock.
    SELECT response INTO v_existing FROM scans WHERE actor_id = p_actor_id AND idempotency_key = p_key;
    IF FOUND THEN
      RETURN v_existing || '{"replayed": true}'::jsonb;
    END IF;
    v_today := (v_now AT TIME ZONE v_shop.timezone)::date;
    v_day_count := CASE WHEN v_day_key = v_today THEN v_day_count ELSE 0 END;
    IF v_day_count >= v_shop.daily_cap THEN
      v_outcome := 'daily_cap';
      v_next := GREATEST(((v_today + 1)::timestamp AT TIME ZONE v_shop.timezone),
                         v_last_scan_at + make_interval(mins => v_shop.cooldown_minutes));
    ELSIF v_last_scan_at IS NOT NULL
          AND v_last_scan_at + make_interval(mins => v_shop.cooldown_minutes) > v_now THEN
      v_outcome := 'cooldown';
      v_next := v_last_scan_at + make_interval(mins => v_shop.cooldown_minutes);
    ELSE
      v_outcome := 'accepted';
      v_multiplier := GREATEST(1, COALESCE(p_multiplier, 1));
      v_delta := (CASE WHEN v_shop.card_mode = 'stamps' THEN 1 ELSE v_shop.points_per_visit END) * v_multiplier;
      IF p_outside_hours THEN
        v_flags := array_append(v_flags, 'outside_hours');
      END IF;
      IF p_device_id IS NOT NULL AND (
        SELECT count(DISTINCT s.user_id) FROM scans s
        WHERE s.device_id = p_device_id AND s.created_at > v_now - make_interval(days => p_shared_device_days)
          AND s.user_id <> p_user_id
      ) >= p_shared_device_accounts - 1 THEN
        v_flags := array_append(v_flags, 'shared_device');
      END IF;
      v_day_count := v_day_count + 1;
      v_next := v_now + make_interval(mins => v_shop.cooldown_minutes);
      IF v_day_count >= v_shop.daily_cap THEN
        v_next := GREATEST(v_next, ((v_today + 1)::timestamp AT TIME ZONE v_shop.timezone));
      END IF;
      UPDATE cards SET visits = visits + 1, last_scan_at = v_now, day_key = v_today, day_count = v_day_count,
             updated_at = v_now
        WHERE id = v_card_id;
      INSERT INTO ledger_entries (card_id, shop_id, kind, delta, actor_id, reason, ref_id, idempotency_key, created_at)
        VALUES (v_card_id, v_shop.id, CASE WHEN v_multiplier > 1 THEN 'double_points' ELSE 'scan' END, v_delta,
                p_actor_id, CASE WHEN v_multiplier > 1 THEN p_period_label END, v_scan_id, p_key, v_now);
    END IF;
  END IF;

  v_response := jsonb_build_object(
    'scanId', v_scan_id,
    'outcome', v_outcome,
    'shopId', v_shop.id,
    'shopName', v_shop.name,
    'shopSlug', v_shop.slug,
    'timezone', COALESCE(v_shop.timezone, 'Europe/Paris'),
    'mode', COALESCE(v_shop.card_mode, 'stamps'),
    'stampsGoal', v_shop.stamps_goal,
    'cardId', v_card_id,
    'delta', v_delta,
    'multiplier', v_multiplier,
    'periodLabel', CASE WHEN v_multiplier > 1 THEN p_period_label END,
    'balance', CASE WHEN v_card_id IS NULL THEN NULL ELSE v_balance + v_delta END,
    'lifetime', CASE WHEN v_card_id IS NULL THEN NULL ELSE v_lifetime + v_delta END,
    'nextAt', v_next,
    'createdAt', v_now
  );

  INSERT INTO scans (id, shop_id, user_id, actor_id, card_id, scan_uid, outcome, method, delta, multiplier, flags,
                     device_id, idempotency_key, response, created_at)
    VALUES (v_scan_id, v_shop.id, p_user_id, p_actor_id, v_card_id, p_scan_uid, v_outcome, p_method, v_delta,
            v_multiplier, v_flags, p_device_id, p_key, v_response, v_now)
    ON CONFLICT (actor_id, idempotency_key) DO NOTHING
    RETURNING id INTO v_inserted;
  IF v_inserted IS NULL THEN
    -- Only a refused attempt can get here (an accepted one holds the card lock):
    -- a twin with the same key won the race; its answer is the answer.
    SELECT response INTO v_existing FROM scans WHERE actor_id = p_actor_id AND idempotency_key = p_key;
    RETURN v_existing || '{"replayed": true}'::jsonb;
  END IF;
  RETURN v_response;
END
$$;
