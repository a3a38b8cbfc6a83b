-- Rewards and their redemption (docs/decisions/0013-rewards-and-redemptions.md).

-- 1. "Utiliser": reserve a reward for a shopper in one round trip. Under the card's
--    row lock (then the reward's, for its stock): idempotency, the shop, the
--    reward's rules (redeemRefusal in src/domain/loyalty/rewards.ts, same order),
--    the balance; then the redemption with a fresh 6-character code, the
--    `redemption` ledger entry and the stock. Two requests can never spend the same
--    points: the second waits for the lock and sees the new balance.
--    Gifts (p_source 'vip' or 'birthday') cost nothing and ignore the catalogue's
--    switch, dates and limits; the caller has checked that the person is eligible,
--    and a gift is once per (card, source, source_ref) while pending or validated.
CREATE OR REPLACE FUNCTION fidele_redeem(
  p_user_id text,
  p_reward_id text,
  p_key text,
  p_source text,
  p_source_ref text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := now();
  v_existing text;
  v_reward record;
  v_shop record;
  v_card_id text;
  v_balance integer;
  v_stock integer;
  v_today date;
  v_limit integer;
  v_cost integer;
  v_refusal text;
  v_id text := gen_random_uuid()::text;
  v_code text;
  v_bytes bytea;
  v_alphabet constant text := 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
  v_constraint text;
BEGIN
  SELECT id INTO v_existing FROM redemptions WHERE user_id = p_user_id AND idempotency_key = p_key;
  IF FOUND THEN
    RETURN jsonb_build_object('outcome', 'accepted', 'redemptionId', v_existing, 'replayed', true);
  END IF;

  SELECT r.id, r.shop_id, r.title, r.cost, r.stock, r.per_customer_limit, r.valid_from, r.valid_until, r.kind,
         r.is_active, r.archived_at
    INTO v_reward FROM rewards r WHERE r.id = p_reward_id;
  IF NOT FOUND OR v_reward.archived_at IS NOT NULL THEN
    RETURN jsonb_build_object('outcome', 'unknown_reward');
  END IF;
  SELECT status, timezone, redemption_ttl_minutes, card_mode INTO v_shop FROM shops WHERE id = v_reward.shop_id;

  SELECT id, balance INTO v_card_id, v_balance FROM cards
    WHERE shop_id = v_reward.shop_id AND user_id = p_user_id FOR UPDATE;
  -- A twin request with the same key may have committed while we waited for the lock.
  SELECT id INTO v_existing FROM redemptions WHERE user_id = p_user_id AND idempotency_key = p_key;
  IF FOUND THEN
    RETURN jsonb_build_object('outcome', 'accepted', 'redemptionId', v_existing, 'replayed', true);
  END IF;

  v_today := (v_now AT TIME ZONE v_shop.timezone)::date;
  v_cost := CASE WHEN p_source = 'reward' THEN v_reward.cost ELSE 0 END;
  IF v_reward.stock IS NOT NULL THEN
    SELECT stock INTO v_stock FROM rewards WHERE id = v_reward.id FOR UPDATE;
  END IF;

  IF v_shop.status <> 'active' THEN
    v_refusal := 'suspended';
  ELSIF p_source = 'reward' AND NOT v_reward.is_active THEN
    v_refusal := 'inactive';
  ELSIF p_source = 'reward' AND v_reward.valid_from IS NOT NULL AND v_today < v_reward.valid_from THEN
    v_refusal := 'not_started';
  ELSIF p_source = 'reward' AND v_reward.valid_until IS NOT NULL AND v_today > v_reward.valid_until THEN
    v_refusal := 'ended';
  ELSIF v_card_id IS NULL THEN
    v_refusal := 'no_card';
  END IF;

  IF v_refusal IS NULL AND p_source = 'reward' THEN
    v_limit := CASE WHEN v_reward.kind = 'ladder' THEN 1 ELSE v_reward.per_customer_limit END;
    IF v_limit IS NOT NULL AND (
      SELECT count(*) FROM redemptions
      WHERE card_id = v_card_id AND reward_id = v_reward.id AND source = 'reward' AND status IN ('pending', 'validated')
    ) >= v_limit THEN
      v_refusal := CASE WHEN v_reward.kind = 'ladder' THEN 'already_claimed' ELSE 'limit_reached' END;
    END IF;
  ELSIF v_refusal IS NULL AND EXISTS (
    SELECT 1 FROM redemptions
    WHERE card_id = v_card_id AND source = p_source AND source_ref = p_source_ref AND status IN ('pending', 'validated')
  ) THEN
    v_refusal := 'already_claimed';
  END IF;

  IF v_refusal IS NULL AND v_stock IS NOT NULL AND v_stock <= 0 THEN
    v_refusal := 'out_of_stock';
  ELSIF v_refusal IS NULL AND v_balance < v_cost THEN
    v_refusal := 'insufficient';
  END IF;

  IF v_refusal IS NOT NULL THEN
    RETURN jsonb_build_object(
      'outcome', v_refusal,
      'mode', v_shop.card_mode,
      'missing', CASE WHEN v_refusal = 'insufficient' THEN v_cost - v_balance END,
      'validFrom', v_reward.valid_from,
      'validUntil', v_reward.valid_until
    );
  END IF;

  -- A code not held by another pending redemption of the shop (31^6 ≈ 887 million codes).
  FOR attempt IN 1..8 LOOP
    v_bytes := uuid_send(gen_random_uuid());
    v_code := '';
    FOR i IN 0..5 LOOP
      v_code := v_code || substr(v_alphabet, 1 + (get_byte(v_bytes, i) % 31), 1);
    END LOOP;
    BEGIN
      INSERT INTO redemptions (id, shop_id, reward_id, card_id, user_id, code, status, source, source_ref, title, cost,
                               expires_at, idempotency_key, created_at)
        VALUES (v_id, v_reward.shop_id, v_reward.id, v_card_id, p_user_id, v_code, 'pending', p_source, p_source_ref,
                v_reward.title, v_cost, v_now + make_interval(mins => v_shop.redemption_ttl_minutes), p_key, v_now);
      EXIT;
    EXCEPTION WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint = 'redemptions_pending_code_idx' AND attempt < 8 THEN
        CONTINUE;
      ELSIF v_constraint = 'redemptions_user_id_idempotency_key_index' THEN
        SELECT id INTO v_existing FROM redemptions WHERE user_id = p_user_id AND idempotency_key = p_key;
        RETURN jsonb_build_object('outcome', 'accepted', 'redemptionId', v_existing, 'replayed', true);
      ELSIF v_constraint = 'redemptions_gift_once_idx' THEN
        RETURN jsonb_build_object('outcome', 'already_claimed', 'mode', v_shop.card_mode);
      END IF;
      RAISE;
    END;
  END LOOP;

  IF v_cost > 0 THEN
    INSERT INTO ledger_entries (card_id, shop_id, kind, delta, actor_id, reason, ref_id, idempotency_key, created_at)
      VALUES (v_card_id, v_reward.shop_id, 'redemption', -v_cost, p_user_id, v_reward.title, v_id, 'redeem:' || p_key, v_now);
  END IF;
  IF v_stock IS NOT NULL THEN
    UPDATE rewards SET stock = stock - 1 WHERE id = v_reward.id;
  END IF;
  RETURN jsonb_build_object('outcome', 'accepted', 'redemptionId', v_id, 'replayed', false);
END
$$;
--> statement-breakpoint

-- 2. The end of a pending redemption, exactly once: the UPDATE ... WHERE status =
--    'pending' is the only way out of pending, so of two racing closes (staff
--    validating while the sweeper expires it, two staff members, a restart) one
--    wins and the other finds nothing. Validation writes a delta-0 `validation`
--    entry naming the staff member; every other end gives the points back with a
--    `refund` entry (unique per redemption: ledger_entries_refund_once_idx) and
--    the stock. A pending redemption past its time can only expire.
--    p_shop_id / p_user_id scope the row (staff of that shop / that shopper).
CREATE OR REPLACE FUNCTION fidele_redemption_close(
  p_id text,
  p_status text,
  p_actor_id text,
  p_reason text,
  p_shop_id text,
  p_user_id text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_r record;
BEGIN
  IF p_status NOT IN ('validated', 'refused', 'cancelled', 'expired') THEN
    RAISE EXCEPTION 'unknown redemption status %', p_status USING ERRCODE = 'invalid_parameter_value';
  END IF;
  UPDATE redemptions SET
    status = p_status,
    decided_at = now(),
    decided_by = CASE WHEN p_status IN ('validated', 'refused') THEN p_actor_id END,
    refuse_reason = CASE WHEN p_status = 'refused' THEN p_reason END
  WHERE id = p_id AND status = 'pending'
    AND (p_shop_id IS NULL OR shop_id = p_shop_id)
    AND (p_user_id IS NULL OR user_id = p_user_id)
    AND (CASE WHEN p_status = 'expired' THEN expires_at <= now() ELSE expires_at > now() END)
  RETURNING id, shop_id, card_id, reward_id, cost, title INTO v_r;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('closed', false);
  END IF;
  IF p_status = 'validated' THEN
    INSERT INTO ledger_entries (card_id, shop_id, kind, delta, actor_id, reason, ref_id)
      VALUES (v_r.card_id, v_r.shop_id, 'validation', 0, p_actor_id, v_r.title, v_r.id);
  ELSE
    IF v_r.cost > 0 THEN
      INSERT INTO ledger_entries (card_id, shop_id, kind, delta, actor_id, reason, ref_id)
        VALUES (v_r.card_id, v_r.shop_id, 'refund', v_r.cost, p_actor_id,
                CASE p_status WHEN 'refused' THEN 'Refusée : ' || p_reason WHEN 'cancelled' THEN 'Annulée' ELSE 'Expirée' END || ' — ' || v_r.title,
                v_r.id)
        ON CONFLICT (ref_id) WHERE kind = 'refund' DO NOTHING;
    END IF;
    UPDATE rewards SET stock = stock + 1 WHERE id = v_r.reward_id AND stock IS NOT NULL;
  END IF;
  RETURN jsonb_build_object('closed', true, 'id', v_r.id, 'status', p_status, 'shopId', v_r.shop_id, 'cardId', v_r.card_id);
END
$$;
--> statement-breakpoint

-- 3. The sweeper: expire what is due, in batches, skipping rows another close holds;
--    optionally only one shop's or one shopper's (a read that lists them expires
--    theirs first). Returns the ids it closed. Safe to run in many processes at once.
CREATE OR REPLACE FUNCTION fidele_expire_redemptions(p_limit integer, p_shop_id text, p_user_id text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_id text;
  v_closed jsonb := '[]'::jsonb;
  v_result jsonb;
BEGIN
  FOR v_id IN
    SELECT id FROM redemptions
    WHERE status = 'pending' AND expires_at <= now()
      AND (p_shop_id IS NULL OR shop_id = p_shop_id)
      AND (p_user_id IS NULL OR user_id = p_user_id)
    ORDER BY expires_at LIMIT p_limit FOR UPDATE SKIP LOCKED
  LOOP
    v_result := fidele_redemption_close(v_id, 'expired', NULL, NULL, NULL, NULL);
    IF (v_result ->> 'closed')::boolean THEN
      v_closed := v_closed || to_jsonb(v_id);
    END IF;
  END LOOP;
  RETURN v_closed;
END
$$;
--> statement-breakpoint

-- 4. fidele_scan (migration 0002) again, with VIP levels: a visit's multiplier is
--    the better of the double-points period's and the customer's level's (on the
--    lifetime total, read under the card lock); and the visit's time taken once the
--    card lock is held.
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
  v_label text;
  v_tier_name text;
  v_tier_multiplier integer := 1;
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
    -- The time of the visit is when we hold the lock, not when the transaction began: a
    -- request that waited for a twin's lock must not see the twin's visit "in its future"
    -- (with no cooldown, now() < last_scan_at would read as a cooldown).
    v_now := GREATEST(clock_timestamp(), v_last_scan_at);
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
      SELECT t.name, t.multiplier INTO v_tier_name, v_tier_multiplier FROM vip_tiers t
        WHERE t.shop_id = v_shop.id AND t.threshold <= v_lifetime ORDER BY t.threshold DESC LIMIT 1;
      v_tier_multiplier := COALESCE(v_tier_multiplier, 1);
      v_multiplier := GREATEST(1, COALESCE(p_multiplier, 1), v_tier_multiplier);
      IF v_multiplier > 1 THEN
        v_label := CASE WHEN v_tier_multiplier > COALESCE(p_multiplier, 1) THEN 'Niveau ' || v_tier_name ELSE p_period_label END;
      END IF;
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
