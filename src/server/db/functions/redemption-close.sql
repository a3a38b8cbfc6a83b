-- The end of a pending redemption, exactly once (docs/decisions/0013-rewards-and-redemptions.md). Applied
-- at every start, after the migrations (src/server/db/functions.ts). The UPDATE ... WHERE status = 'pending'
-- is the only way out of pending, so of two racing closes (staff validating while the sweeper expires it,
-- two staff members, a restart) one wins and the other finds nothing. Validation writes a delta-0
-- `validation` entry naming the staff member; every other end gives the points back with a `refund` entry
-- (unique per redemption: ledger_entries_refund_once_idx) and the stock. A pending redemption past its time
-- can only expire. p_shop_id / p_user_id scope the row (staff of that shop / that shopper). The refund's
-- words (p_refund_label: "Refusée : …", "Annulée", "Expirée") come from TypeScript.
CREATE OR REPLACE FUNCTION fidele_redemption_close(
  p_id text,
  p_status text,
  p_actor_id text,
  p_reason text,
  p_shop_id text,
  p_user_id text,
  p_refund_label text
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
                p_refund_label || ' — ' || v_r.title,
                v_r.id)
        ON CONFLICT (ref_id) WHERE kind = 'refund' DO NOTHING;
    END IF;
    UPDATE rewards SET stock = stock + 1 WHERE id = v_r.reward_id AND stock IS NOT NULL;
  END IF;
  RETURN jsonb_build_object('closed', true, 'id', v_r.id, 'status', p_status, 'shopId', v_r.shop_id, 'cardId', v_r.card_id);
END
$$;

CREATE OR REPLACE FUNCTION fidele_expire_redemptions(p_limit integer, p_shop_id text, p_user_id text, p_refund_label text)
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
    v_result := fidele_redemption_close(v_id, 'expired', NULL, NULL, NULL, NULL, p_refund_label);
    IF (v_result ->> 'closed')::boolean THEN
      v_closed := v_closed || to_jsonb(v_id);
    END IF;
  END LOOP;
  RETURN v_closed;
END
$$;
