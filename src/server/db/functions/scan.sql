-- A scan in one round trip (docs/decisions/0010-scan-codes-and-ledger.md, 0014). Applied at every start,
-- after the migrations (src/server/db/functions.ts). The caller (src/server/modules/cards/scan.service.ts)
-- has checked the code's signature with the shop key it caches, computed the opening-hours flag and the
-- visit's multiplier candidates (double points, VIP levels, each with its label) from the same cached
-- config (p_config_version). Here, under the card's row lock: idempotency, shop status, poster rule,
-- cooldown and daily cap (checkVisit in src/domain/loyalty/scan-rules.ts: tests/api/rules-parity.test.ts
-- runs the same cases through both), the multiplier, the card, the ledger entry and the scan row.
-- Returns the answer as jsonb with an outcome code (the French words are built in TypeScript);
-- a retry with the same key gets the first answer.
-- A card that earns by amount (issue 29, ADR 0050): the caller passes the amount and its points
-- (pointsForAmount in src/domain/loyalty/amount.ts, from the cached config this function's version check
-- vouches for); a visit without an amount is refused there (amount_required). A receipt code (ADR 0053) is spent here, once,
-- when the visit is accepted: its (shop, receipt) row is unique, so two claims anywhere credit once.
CREATE OR REPLACE FUNCTION fidele_scan(
  p_actor_id text,
  p_user_id text,
  p_scan_uid text,
  p_key text,
  p_method text,
  p_code text,
  p_config_version integer,
  p_multipliers jsonb,
  p_outside_hours boolean,
  p_device_id text,
  p_shared_device_accounts integer,
  p_shared_device_days integer,
  p_visit_at timestamptz,
  p_amount_cents integer,
  p_amount_points integer,
  p_receipt_id text
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
  v_label text;
  v_flags text[] := '{}';
  v_scan_id text := gen_random_uuid()::text;
  v_response jsonb;
  v_inserted text;
  v_since timestamptz;
  v_other text;
  v_after text;
  v_others integer;
BEGIN
  SELECT response INTO v_existing FROM scans WHERE actor_id = p_actor_id AND idempotency_key = p_key;
  IF FOUND THEN
    RETURN v_existing || '{"replayed": true}'::jsonb;
  END IF;

  SELECT id, name, slug, status, timezone, card_mode, stamps_goal, points_per_visit, cooldown_minutes,
         daily_cap, allow_static_poster, config_version, offline_grace_minutes, earn_by
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
  ELSIF p_code = 'receipt_expired' THEN
    v_outcome := 'receipt_expired';
  ELSIF p_code = 'offline' AND (p_visit_at IS NULL
        OR v_now > p_visit_at + make_interval(mins => v_shop.offline_grace_minutes)) THEN
    -- Kept offline for longer than the shop allows (p_visit_at is within the code's validity).
    v_outcome := 'offline_late';
  ELSIF p_code = 'offline' THEN
    v_flags := array_append(v_flags, 'offline');
  ELSIF p_code NOT IN ('valid', 'offline') THEN
    v_outcome := 'invalid_code';
  END IF;
  IF v_outcome IS NULL AND v_shop.earn_by = 'amount' AND v_shop.card_mode = 'points' AND p_amount_points IS NULL THEN
    v_outcome := 'amount_required';
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
    -- The time of the visit is when we hold the lock, not when the transaction began: a
    -- request that waited for a twin's lock must not see the twin's visit "in its future"
    -- (with no cooldown, now() < last_scan_at would read as a cooldown).
    -- A visit scanned offline is dated honestly: when the code was shown, not when the network came back.
    v_now := CASE WHEN p_code = 'offline' THEN p_visit_at ELSE GREATEST(clock_timestamp(), v_last_scan_at) END;
    v_today := (v_now AT TIME ZONE v_shop.timezone)::date;
    v_day_count := CASE WHEN v_day_key = v_today THEN v_day_count ELSE 0 END;
    IF p_receipt_id IS NOT NULL
       AND EXISTS (SELECT 1 FROM receipt_claims WHERE shop_id = v_shop.id AND receipt_id = p_receipt_id) THEN
      v_outcome := 'receipt_used';
    ELSIF v_day_count >= v_shop.daily_cap THEN
      v_outcome := 'daily_cap';
      v_next := GREATEST(((v_today + 1)::timestamp AT TIME ZONE v_shop.timezone),
                         v_last_scan_at + make_interval(mins => v_shop.cooldown_minutes));
    ELSIF v_last_scan_at IS NOT NULL
          AND v_last_scan_at + make_interval(mins => v_shop.cooldown_minutes) > v_now THEN
      v_outcome := 'cooldown';
      v_next := v_last_scan_at + make_interval(mins => v_shop.cooldown_minutes);
    ELSE
      v_outcome := 'accepted';
      -- The caller's candidates (visitMultipliers in src/domain/loyalty/rewards.ts): the best one whose
      -- lifetime range holds the card's lifetime, read under the lock; on a tie, the first listed.
      SELECT (c.item ->> 'multiplier')::integer, c.item ->> 'label' INTO v_multiplier, v_label
        FROM jsonb_array_elements(COALESCE(p_multipliers, '[]'::jsonb)) WITH ORDINALITY AS c(item, ord)
        WHERE (c.item ->> 'minLifetime')::integer <= v_lifetime
          AND (c.item ->> 'maxLifetime' IS NULL OR v_lifetime < (c.item ->> 'maxLifetime')::integer)
          -- A personal candidate (an automation's offer of double points, issue 27): only while this card holds one.
          AND (NOT COALESCE((c.item ->> 'personal')::boolean, false) OR EXISTS (
            SELECT 1 FROM automation_occasions o WHERE o.card_id = v_card_id AND o.offer_kind = 'double_points'
              AND o.offer_until > v_now AND o.decided_at <= v_now))
        ORDER BY (c.item ->> 'multiplier')::integer DESC, c.ord
        LIMIT 1;
      IF COALESCE(v_multiplier, 1) <= 1 THEN
        v_multiplier := 1;
        v_label := NULL;
      END IF;
      v_delta := (CASE WHEN v_shop.card_mode = 'stamps' THEN 1
                       WHEN v_shop.earn_by = 'amount' THEN p_amount_points
                       ELSE v_shop.points_per_visit END) * v_multiplier;
      IF p_outside_hours THEN
        v_flags := array_append(v_flags, 'outside_hours');
      END IF;
      -- Shared device: other accounts seen on it within the window. A loose scan of scans_device_user_created_idx
      -- (device, user, time): one probe finds the next account after v_after, one asks whether it scanned since
      -- v_since; the caller's own rows are jumped over in one probe, and the walk stops at the threshold. Its
      -- cost follows the device's number of accounts, never its number of scans.
      IF p_device_id IS NOT NULL THEN
        v_since := v_now - make_interval(days => p_shared_device_days);
        v_others := 0;
        v_after := '';
        WHILE v_others < p_shared_device_accounts - 1 LOOP
          SELECT s.user_id INTO v_other FROM scans s
            WHERE s.device_id = p_device_id AND s.user_id > v_after ORDER BY s.user_id LIMIT 1;
          EXIT WHEN NOT FOUND;
          v_after := v_other;
          CONTINUE WHEN v_other = p_user_id;
          IF EXISTS (SELECT 1 FROM scans s WHERE s.device_id = p_device_id AND s.user_id = v_other AND s.created_at > v_since) THEN
            v_others := v_others + 1;
          END IF;
        END LOOP;
        IF v_others >= p_shared_device_accounts - 1 THEN
          v_flags := array_append(v_flags, 'shared_device');
        END IF;
      END IF;
      IF p_receipt_id IS NOT NULL THEN
        -- Another shopper's claim of the same receipt may be in flight: the primary key decides, once.
        INSERT INTO receipt_claims (shop_id, receipt_id, user_id, scan_id)
          VALUES (v_shop.id, p_receipt_id, p_user_id, v_scan_id)
          ON CONFLICT DO NOTHING RETURNING receipt_id INTO v_inserted;
        IF v_inserted IS NULL THEN
          v_outcome := 'receipt_used';
          v_delta := 0;
          v_multiplier := 1;
          v_label := NULL;
          v_flags := '{}';
        END IF;
        v_inserted := NULL;
      END IF;
    END IF;
    IF v_outcome = 'accepted' THEN
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
                p_actor_id, v_label, v_scan_id, p_key, v_now);
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
    'periodLabel', v_label,
    'balance', CASE WHEN v_card_id IS NULL THEN NULL ELSE v_balance + v_delta END,
    'lifetime', CASE WHEN v_card_id IS NULL THEN NULL ELSE v_lifetime + v_delta END,
    'nextAt', v_next,
    'amountCents', p_amount_cents,
    'createdAt', v_now
  );

  INSERT INTO scans (id, shop_id, user_id, actor_id, card_id, scan_uid, outcome, method, delta, multiplier, flags,
                     device_id, amount_cents, idempotency_key, response, created_at)
    VALUES (v_scan_id, v_shop.id, p_user_id, p_actor_id, v_card_id, p_scan_uid, v_outcome, p_method, v_delta,
            v_multiplier, v_flags, p_device_id, p_amount_cents, p_key, v_response, v_now)
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
