-- What the shopper's screen shows of one redemption (shopperRedemptionDto in
-- src/server/modules/rewards/redemptions.service.ts): its row, the card's balance, the reward's and the shop's
-- names and image versions; times as epoch milliseconds. fidele_redeem returns it with "accepted", so
-- "Utiliser" is one round trip. Null when the id is not this user's. PL/pgSQL so that its plan is cached.
CREATE OR REPLACE FUNCTION fidele_redemption_view(p_id text, p_user_id text) RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT jsonb_build_object(
    'id', r.id, 'code', r.code, 'status', r.status, 'source', r.source, 'title', r.title, 'cost', r.cost,
    'expiresAt', (extract(epoch FROM r.expires_at) * 1000)::bigint,
    'createdAt', (extract(epoch FROM r.created_at) * 1000)::bigint,
    'decidedAt', (extract(epoch FROM r.decided_at) * 1000)::bigint,
    'refuseReason', r.refuse_reason,
    'balance', c.balance,
    'rewardSlug', w.slug, 'rewardHasPhoto', w.photo IS NOT NULL,
    'rewardUpdatedAt', (extract(epoch FROM w.updated_at) * 1000)::bigint,
    'shopSlug', s.slug, 'shopName', s.name, 'mode', s.card_mode, 'shopHasLogo', s.logo IS NOT NULL,
    'shopUpdatedAt', (extract(epoch FROM s.updated_at) * 1000)::bigint
  )
  FROM redemptions r
  JOIN cards c ON c.id = r.card_id
  JOIN rewards w ON w.id = r.reward_id
  JOIN shops s ON s.id = r.shop_id
  WHERE r.id = p_id AND r.user_id = p_user_id);
END
$$;

-- "Utiliser": reserve a reward for a shopper in one round trip (docs/decisions/0013-rewards-and-redemptions.md).
-- Applied at every start, after the migrations (src/server/db/functions.ts); a name in double braces is a constant of
-- src/domain/loyalty/rewards.ts, filled in then. Under the card's row lock (then the reward's, for its
-- stock): idempotency, the shop, the reward's rules (redeemRefusal in src/domain/loyalty/rewards.ts, same
-- order: tests/api/rules-parity.test.ts runs the same cases through both), the balance; then the redemption
-- with a fresh code, the `redemption` ledger entry and the stock. Two requests can never spend the same
-- points: the second waits for the lock and sees the new balance. Gifts (p_source 'vip' or 'birthday') cost
-- nothing and ignore the catalogue's switch, dates and limits; the caller has checked that the person is
-- eligible, and a gift is once per (card, source, source_ref) while pending or validated.
-- Returns an outcome code; the French sentence is redeemRefusalFr's. "accepted" carries the redemption as the
-- shopper sees it (`view`, fidele_redemption_view), so the HTTP answer needs no second query.
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
  v_alphabet constant text := {{REDEMPTION_CODE_ALPHABET}};
  v_constraint text;
BEGIN
  SELECT id INTO v_existing FROM redemptions WHERE user_id = p_user_id AND idempotency_key = p_key;
  IF FOUND THEN
    RETURN jsonb_build_object('outcome', 'accepted', 'redemptionId', v_existing, 'replayed', true,
      'view', fidele_redemption_view(v_existing, p_user_id));
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
    RETURN jsonb_build_object('outcome', 'accepted', 'redemptionId', v_existing, 'replayed', true,
      'view', fidele_redemption_view(v_existing, p_user_id));
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
    FOR i IN 0..({{REDEMPTION_CODE_LENGTH}} - 1) LOOP
      v_code := v_code || substr(v_alphabet, 1 + (get_byte(v_bytes, i) % length(v_alphabet)), 1);
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
        RETURN jsonb_build_object('outcome', 'accepted', 'redemptionId', v_existing, 'replayed', true,
      'view', fidele_redemption_view(v_existing, p_user_id));
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
  RETURN jsonb_build_object('outcome', 'accepted', 'redemptionId', v_id, 'replayed', false,
    'view', fidele_redemption_view(v_id, p_user_id));
END
$$;
