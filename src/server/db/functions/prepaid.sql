-- Prepaid bundles and gift cards, and imported balances (docs/decisions/0049-prepaid-and-imports.md). Applied at
-- every start, after the migrations (src/server/db/functions.ts); a name in double braces is a constant of src/domain,
-- filled in then. Every function returns an outcome code; the French words are prepaidRefusalFr's.

-- The prepaid ledger is append-only, whoever connects (triggers prepaid_entries_append_only and _no_truncate,
-- migration 0033). It holds no free text, so RGPD erasure has nothing to blank in it (erasure.sql skips it).
CREATE OR REPLACE FUNCTION fidele_prepaid_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'prepaid_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

-- A holding's balance follows its ledger, in the same transaction (trigger prepaid_entries_apply). The CHECK
-- (balance >= 0) on prepaid_holdings backs the row lock the callers take.
CREATE OR REPLACE FUNCTION fidele_prepaid_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE prepaid_holdings SET balance = balance + NEW.delta WHERE id = NEW.holding_id AND shop_id = NEW.shop_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'prepaid entry for holding % does not match shop %', NEW.holding_id, NEW.shop_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;

-- A code from the redemption codes' alphabet (no look-alikes), drawn from gen_random_uuid() bytes.
CREATE OR REPLACE FUNCTION fidele_random_code(p_length integer) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_alphabet constant text := {{REDEMPTION_CODE_ALPHABET}};
  v_bytes bytea := uuid_send(gen_random_uuid());
  v_code text := '';
BEGIN
  FOR i IN 0..(p_length - 1) LOOP
    IF i > 0 AND i % 16 = 0 THEN v_bytes := uuid_send(gen_random_uuid()); END IF;
    v_code := v_code || substr(v_alphabet, 1 + (get_byte(v_bytes, i % 16) % length(v_alphabet)), 1);
  END LOOP;
  RETURN v_code;
END
$$;

-- A new holding with its first ledger entry, a counter code free in its shop (retried on collision) and, for a gift
-- or an import, nothing else; the caller has checked who may do it.
CREATE OR REPLACE FUNCTION fidele_prepaid_open(
  p_shop_id text, p_product_id text, p_user_id text, p_kind text, p_title text, p_amount integer,
  p_expires_at timestamptz, p_claim_code text, p_recipient_email text, p_sold_by text, p_payment_method text,
  p_price_cents integer, p_key text, p_entry_kind text, p_actor_id text
) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_id text := gen_random_uuid()::text;
  v_constraint text;
BEGIN
  FOR attempt IN 1..8 LOOP
    BEGIN
      INSERT INTO prepaid_holdings (id, shop_id, product_id, user_id, kind, title, code, expires_at, claim_code,
                                    recipient_email, sold_by, payment_method, price_cents, idempotency_key, claimed_at)
        VALUES (v_id, p_shop_id, p_product_id, p_user_id, p_kind, p_title, fidele_random_code({{PREPAID_CODE_LENGTH}}),
                p_expires_at, p_claim_code, p_recipient_email, p_sold_by, p_payment_method, p_price_cents, p_key,
                CASE WHEN p_user_id IS NOT NULL THEN now() END);
      EXIT;
    EXCEPTION WHEN unique_violation THEN
      GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
      IF v_constraint = 'prepaid_holdings_shop_id_code_index' AND attempt < 8 THEN CONTINUE; END IF;
      RAISE;
    END;
  END LOOP;
  INSERT INTO prepaid_entries (holding_id, shop_id, kind, delta, actor_id, idempotency_key)
    VALUES (v_id, p_shop_id, p_entry_kind, p_amount, p_actor_id, p_entry_kind || ':' || v_id);
  RETURN v_id;
END
$$;

-- A sale recorded at the till by a member of the shop: to a customer (p_user_id) or as a gift waiting on a claim
-- code sent to p_recipient_email. Idempotent per (staff member, key). Staff never sell to themselves.
CREATE OR REPLACE FUNCTION fidele_prepaid_sell(
  p_shop_id text, p_product_id text, p_actor_id text, p_user_id text, p_recipient_email text,
  p_payment_method text, p_key text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_existing text;
  v_product record;
  v_status text;
  v_tz text;
  v_id text;
  v_claim text;
BEGIN
  SELECT id INTO v_existing FROM prepaid_holdings WHERE sold_by = p_actor_id AND idempotency_key = p_key;
  IF FOUND THEN
    RETURN jsonb_build_object('outcome', 'accepted', 'holdingId', v_existing, 'replayed', true);
  END IF;
  SELECT status, timezone INTO v_status, v_tz FROM shops WHERE id = p_shop_id;
  SELECT * INTO v_product FROM prepaid_products WHERE id = p_product_id AND shop_id = p_shop_id AND is_active;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'unknown'); END IF;
  IF v_status <> 'active' THEN RETURN jsonb_build_object('outcome', 'suspended'); END IF;
  IF p_user_id = p_actor_id THEN RETURN jsonb_build_object('outcome', 'own'); END IF;
  IF p_user_id IS NULL THEN
    LOOP
      v_claim := fidele_random_code({{CLAIM_CODE_LENGTH}});
      EXIT WHEN NOT EXISTS (SELECT 1 FROM prepaid_holdings WHERE claim_code = v_claim)
        AND NOT EXISTS (SELECT 1 FROM import_invitations WHERE code = v_claim);
    END LOOP;
  END IF;
  BEGIN
    v_id := fidele_prepaid_open(p_shop_id, v_product.id, p_user_id, v_product.kind, v_product.title,
      v_product.quantity,
      -- Valid through the same calendar day `validity_months` later, in the shop's time zone: the first instant
      -- it cannot be used is the midnight after (prepaidLastDay in src/domain/loyalty/prepaid.ts reads it back).
      (((now() AT TIME ZONE v_tz)::date + make_interval(months => v_product.validity_months))::date + 1)::timestamp
        AT TIME ZONE v_tz,
      v_claim, p_recipient_email,
      p_actor_id, p_payment_method, v_product.price_cents, p_key, 'sale', p_actor_id);
  EXCEPTION WHEN unique_violation THEN
    -- A twin request with the same key committed first.
    SELECT id INTO v_existing FROM prepaid_holdings WHERE sold_by = p_actor_id AND idempotency_key = p_key;
    IF FOUND THEN
      RETURN jsonb_build_object('outcome', 'accepted', 'holdingId', v_existing, 'replayed', true);
    END IF;
    RAISE;
  END;
  RETURN jsonb_build_object('outcome', 'accepted', 'holdingId', v_id, 'replayed', false, 'claimCode', v_claim);
END
$$;

-- A unit or an amount used at the counter, by the holding's code, under the holding's row lock: two uses can
-- never spend the same balance (the second waits and sees the new one). Idempotent per (staff member, key).
-- Refusals in this order: unknown, suspended, unclaimed, own, expired, insufficient.
CREATE OR REPLACE FUNCTION fidele_prepaid_use(
  p_shop_id text, p_code text, p_amount integer, p_actor_id text, p_key text
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_h record;
  v_status text;
  v_entry bigint;
BEGIN
  IF p_amount <= 0 THEN
    RAISE EXCEPTION 'a use is of a positive amount' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  SELECT * INTO v_h FROM prepaid_holdings WHERE shop_id = p_shop_id AND code = p_code FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'unknown'); END IF;
  -- A twin request with the same key may have committed while we waited for the lock.
  SELECT id INTO v_entry FROM prepaid_entries WHERE actor_id = p_actor_id AND idempotency_key = p_key;
  IF FOUND THEN
    RETURN jsonb_build_object('outcome', 'accepted', 'holdingId', v_h.id, 'balance', v_h.balance, 'entryId', v_entry,
      'replayed', true);
  END IF;
  SELECT status INTO v_status FROM shops WHERE id = p_shop_id;
  IF v_status <> 'active' THEN RETURN jsonb_build_object('outcome', 'suspended'); END IF;
  IF v_h.user_id IS NULL THEN RETURN jsonb_build_object('outcome', 'unclaimed'); END IF;
  IF v_h.user_id = p_actor_id THEN RETURN jsonb_build_object('outcome', 'own'); END IF;
  IF v_h.expires_at <= now() THEN
    RETURN jsonb_build_object('outcome', 'expired', 'expiresAt', (extract(epoch FROM v_h.expires_at) * 1000)::bigint);
  END IF;
  IF v_h.balance < p_amount THEN
    RETURN jsonb_build_object('outcome', 'insufficient', 'kind', v_h.kind, 'balance', v_h.balance);
  END IF;
  INSERT INTO prepaid_entries (holding_id, shop_id, kind, delta, actor_id, idempotency_key)
    VALUES (v_h.id, p_shop_id, 'use', -p_amount, p_actor_id, p_key) RETURNING id INTO v_entry;
  RETURN jsonb_build_object('outcome', 'accepted', 'holdingId', v_h.id, 'balance', v_h.balance - p_amount,
    'entryId', v_entry, 'replayed', false);
END
$$;

-- A use given back (a wrong amount typed at the till), or a sale taken back while nothing of it was used (the till
-- refunds it), by a `cancel` entry of the opposite amount naming it, under the holding's row lock: once per entry
-- (the unique index on reverses_id backs the check). Who: the person who typed it, within {{PREPAID_CANCEL_MINUTES}}
-- minutes; the owner or a manager (p_may_any) at any time; never on one's own holding. A cancelled gift card's claim
-- code stops working. A retry by the same person is a replay. Refusals in this order: unknown, already_cancelled,
-- suspended, own, not_yours, too_late, already_used.
CREATE OR REPLACE FUNCTION fidele_prepaid_cancel(
  p_shop_id text, p_entry_id bigint, p_actor_id text, p_may_any boolean
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_use record;
  v_h record;
  v_done record;
  v_cancel bigint;
  v_status text;
BEGIN
  SELECT * INTO v_use FROM prepaid_entries WHERE id = p_entry_id AND shop_id = p_shop_id AND kind IN ('use', 'sale');
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'unknown'); END IF;
  SELECT * INTO v_h FROM prepaid_holdings WHERE id = v_use.holding_id FOR UPDATE;
  SELECT id, actor_id INTO v_done FROM prepaid_entries WHERE reverses_id = p_entry_id;
  IF FOUND THEN
    IF v_done.actor_id = p_actor_id THEN
      RETURN jsonb_build_object('outcome', 'accepted', 'holdingId', v_h.id, 'balance', v_h.balance,
        'entryId', v_done.id, 'replayed', true);
    END IF;
    RETURN jsonb_build_object('outcome', 'already_cancelled');
  END IF;
  SELECT status INTO v_status FROM shops WHERE id = p_shop_id;
  IF v_status <> 'active' THEN RETURN jsonb_build_object('outcome', 'suspended'); END IF;
  IF v_h.user_id = p_actor_id THEN RETURN jsonb_build_object('outcome', 'own'); END IF;
  IF NOT p_may_any THEN
    IF v_use.actor_id IS DISTINCT FROM p_actor_id THEN RETURN jsonb_build_object('outcome', 'not_yours'); END IF;
    IF v_use.created_at < now() - make_interval(mins => {{PREPAID_CANCEL_MINUTES}}) THEN
      RETURN jsonb_build_object('outcome', 'too_late');
    END IF;
  END IF;
  IF v_use.kind = 'sale' THEN
    IF v_h.balance < v_use.delta THEN RETURN jsonb_build_object('outcome', 'already_used'); END IF;
    UPDATE prepaid_holdings SET claim_code = NULL WHERE id = v_h.id AND user_id IS NULL;
  END IF;
  INSERT INTO prepaid_entries (holding_id, shop_id, kind, delta, actor_id, idempotency_key, reverses_id)
    VALUES (v_h.id, p_shop_id, 'cancel', -v_use.delta, p_actor_id, 'cancel:' || p_entry_id, p_entry_id)
    RETURNING id INTO v_cancel;
  RETURN jsonb_build_object('outcome', 'accepted', 'holdingId', v_h.id, 'balance', v_h.balance - v_use.delta,
    'entryId', v_cancel, 'cancelled', -v_use.delta, 'replayed', false);
END
$$;

-- A claim code typed by a signed-in person: a gift card sent by e-mail, or a line of a shop's import (points on the
-- card, a prepaid balance as a new holding). Each code is claimed once (the UPDATE … WHERE not yet claimed is the
-- only way); the person who sold or imported it cannot claim it.
CREATE OR REPLACE FUNCTION fidele_claim(p_code text, p_user_id text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_h record;
  v_i record;
  v_card_id text;
  v_holding text;
BEGIN
  SELECT id, shop_id, sold_by, user_id INTO v_h FROM prepaid_holdings WHERE claim_code = p_code FOR UPDATE;
  IF FOUND THEN
    IF v_h.user_id IS NOT NULL THEN RETURN jsonb_build_object('outcome', 'already_claimed'); END IF;
    IF v_h.sold_by = p_user_id THEN RETURN jsonb_build_object('outcome', 'own'); END IF;
    UPDATE prepaid_holdings SET user_id = p_user_id, claimed_at = now() WHERE id = v_h.id;
    RETURN jsonb_build_object('outcome', 'claimed', 'shopId', v_h.shop_id, 'holdingId', v_h.id, 'points', 0);
  END IF;

  SELECT * INTO v_i FROM import_invitations WHERE code = p_code FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'unknown'); END IF;
  IF v_i.claimed_at IS NOT NULL THEN RETURN jsonb_build_object('outcome', 'already_claimed'); END IF;
  IF v_i.created_by = p_user_id THEN RETURN jsonb_build_object('outcome', 'own'); END IF;
  UPDATE import_invitations SET claimed_by = p_user_id, claimed_at = now() WHERE id = v_i.id;
  IF v_i.points > 0 THEN
    INSERT INTO cards (shop_id, user_id) VALUES (v_i.shop_id, p_user_id) ON CONFLICT (shop_id, user_id) DO NOTHING;
    SELECT id INTO v_card_id FROM cards WHERE shop_id = v_i.shop_id AND user_id = p_user_id FOR UPDATE;
    INSERT INTO ledger_entries (card_id, shop_id, kind, delta, actor_id, ref_id, idempotency_key)
      VALUES (v_card_id, v_i.shop_id, 'import', v_i.points, p_user_id, v_i.id, 'import:' || v_i.id);
  END IF;
  IF coalesce(v_i.prepaid_amount, 0) > 0 THEN
    v_holding := fidele_prepaid_open(v_i.shop_id, NULL, p_user_id, v_i.prepaid_kind, v_i.prepaid_title,
      v_i.prepaid_amount, v_i.prepaid_expires_at, NULL, NULL, NULL, NULL, NULL, NULL, 'import', p_user_id);
  END IF;
  RETURN jsonb_build_object('outcome', 'claimed', 'shopId', v_i.shop_id, 'holdingId', v_holding,
    'points', v_i.points);
END
$$;
