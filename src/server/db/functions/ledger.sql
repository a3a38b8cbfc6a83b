-- The ledger's invariants (docs/decisions/0010-scan-codes-and-ledger.md). Applied at every start,
-- after the migrations (src/server/db/functions.ts); a name in double braces is a constant of src/domain, filled in then.

-- The ledger is append-only: no UPDATE, DELETE or TRUNCATE, whoever connects
-- (triggers ledger_entries_append_only and ledger_entries_no_truncate, migration 0002). One exception, RGPD erasure
-- (fidele_erase_person_traces, erasure.sql): while `fidele.erasing_user` names a person, an UPDATE that only blanks
-- that person's address, phone or name in a reason (typed by whoever corrected a balance) passes.
CREATE OR REPLACE FUNCTION fidele_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  erasing text := nullif(current_setting('fidele.erasing_user', true), '');
  redacted ledger_entries;
BEGIN
  IF TG_OP = 'UPDATE' AND erasing IS NOT NULL THEN
    redacted := OLD;
    redacted.reason := fidele_redact(OLD.reason, fidele_person_needles(erasing));
    IF NEW IS NOT DISTINCT FROM redacted THEN RETURN NEW; END IF;
  END IF;
  RAISE EXCEPTION 'ledger_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;

-- A card's balance and lifetime total follow its ledger, in the same transaction (trigger
-- ledger_entries_apply). Lifetime counts what was earned: LIFETIME_KINDS in src/domain/loyalty/ledger.ts.
CREATE OR REPLACE FUNCTION fidele_ledger_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cards SET
    balance = balance + NEW.delta,
    lifetime = lifetime + CASE WHEN NEW.kind IN ({{LIFETIME_KINDS}}) THEN NEW.delta ELSE 0 END,
    updated_at = now()
  WHERE id = NEW.card_id AND shop_id = NEW.shop_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ledger entry for card % does not match shop %', NEW.card_id, NEW.shop_id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
