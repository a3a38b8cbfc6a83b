-- Issue 11. cards.sort_name and cards.search_text: the owner's name sort key and folded search text
-- (src/server/modules/cards/customers.service.ts), copied onto each card so the customers list reads one table
-- by index. The same expressions the list used over its joins; the fold is SEARCH_FOLD_FROM/TO of
-- src/domain/loyalty/shop-text.ts. Kept by triggers (migration 0017): a card made or moved to another user,
-- a profile's names, a user's e-mail.
CREATE OR REPLACE FUNCTION fidele_card_text(p_user_id text, OUT sort_name text, OUT search_text text)
LANGUAGE sql STABLE AS $$
  SELECT lower(coalesce(p.last_name, '') || ' ' || coalesce(p.first_name, '')),
         translate(lower(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '') || ' ' || coalesce(u.email, '')),
                   {{SEARCH_FOLD_FROM}}, {{SEARCH_FOLD_TO}})
  FROM (SELECT p_user_id AS id) k LEFT JOIN profiles p ON p.id = k.id LEFT JOIN "user" u ON u.id = k.id
$$;

CREATE OR REPLACE FUNCTION fidele_card_text_card() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT t.sort_name, t.search_text INTO NEW.sort_name, NEW.search_text FROM fidele_card_text(NEW.user_id) t;
  RETURN NEW;
END
$$;

CREATE OR REPLACE FUNCTION fidele_card_text_person() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_id text := CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END;
BEGIN
  UPDATE cards c SET sort_name = t.sort_name, search_text = t.search_text
    FROM fidele_card_text(v_id) t
    WHERE c.user_id = v_id AND (c.sort_name, c.search_text) IS DISTINCT FROM (t.sort_name, t.search_text);
  RETURN NULL;
END
$$;
