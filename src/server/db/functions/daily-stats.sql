-- Issue 11 (docs/decisions/0027). What the scans, cards and ledger_entries write, kept for the back-office in the same
-- transaction: the dashboard's figures per shop and local day, and shop_devices (« appareil N »).
-- Statement triggers with transition tables (migration 0017): one insert per statement, whatever its number of rows.
-- Figures are appended to shop_daily_deltas (inserts only: concurrent scans of one shop never wait for a row's lock);
-- fidele_daily_stats_fold moves them into shop_daily_stats (job daily-stats.fold, every minute); readers add both.

CREATE OR REPLACE FUNCTION fidele_daily_stats_cards() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO shop_daily_deltas (shop_id, day, new_customers)
    SELECT n.shop_id, (n.created_at AT TIME ZONE s.timezone)::date, count(*)
    FROM new_rows n JOIN shops s ON s.id = n.shop_id
    GROUP BY 1, 2;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION fidele_daily_stats_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO shop_daily_deltas (shop_id, day, points, redemptions)
    SELECT n.shop_id, (n.created_at AT TIME ZONE s.timezone)::date,
           coalesce(sum(n.delta) FILTER (WHERE n.kind IN ('scan', 'double_points', 'bonus')), 0),
           count(*) FILTER (WHERE n.kind = 'redemption')
    FROM new_rows n JOIN shops s ON s.id = n.shop_id
    WHERE n.kind IN ('scan', 'double_points', 'bonus', 'redemption')
    GROUP BY 1, 2;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION fidele_daily_stats_scans() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_shop text;
BEGIN
  INSERT INTO shop_daily_deltas (shop_id, day, scans, refused, flagged)
    SELECT n.shop_id, (n.created_at AT TIME ZONE s.timezone)::date,
           count(*) FILTER (WHERE n.outcome = 'accepted'), count(*) FILTER (WHERE n.outcome <> 'accepted'),
           count(*) FILTER (WHERE cardinality(n.flags) > 0)
    FROM new_rows n JOIN shops s ON s.id = n.shop_id
    GROUP BY 1, 2;
  -- A device's first scan at a shop gives it the shop's next number, under a per-shop lock taken only then.
  FOR v_shop IN
    SELECT DISTINCT n.shop_id FROM new_rows n
    WHERE n.shop_id IS NOT NULL AND n.device_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM shop_devices sd WHERE sd.shop_id = n.shop_id AND sd.device_id = n.device_id)
    ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(hashtext('shop_devices:' || v_shop));
    INSERT INTO shop_devices (shop_id, device_id, device_no, first_seen_at)
      SELECT v_shop, x.device_id,
             coalesce((SELECT max(sd.device_no) FROM shop_devices sd WHERE sd.shop_id = v_shop), 0)
               + row_number() OVER (ORDER BY x.first_seen, x.device_id),
             x.first_seen
      FROM (
        SELECT n.device_id, min(n.created_at) AS first_seen FROM new_rows n
        WHERE n.shop_id = v_shop AND n.device_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM shop_devices sd WHERE sd.shop_id = v_shop AND sd.device_id = n.device_id)
        GROUP BY n.device_id
      ) x;
  END LOOP;
  RETURN NULL;
END
$$;

-- One shop's daily figures made again from its cards, scans and ledger (a new time zone moves every day's bounds).
CREATE OR REPLACE FUNCTION fidele_daily_stats_rebuild(p_shop_id text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_tz text;
BEGIN
  SELECT timezone INTO v_tz FROM shops WHERE id = p_shop_id;
  DELETE FROM shop_daily_deltas WHERE shop_id = p_shop_id;
  DELETE FROM shop_daily_stats WHERE shop_id = p_shop_id;
  INSERT INTO shop_daily_stats (shop_id, day, new_customers, scans, refused, flagged, points, redemptions)
    SELECT p_shop_id, x.day, sum(x.nc), sum(x.sc), sum(x.rf), sum(x.fl), sum(x.pt), sum(x.rd)
    FROM (
      SELECT (created_at AT TIME ZONE v_tz)::date AS day, 1 AS nc, 0 AS sc, 0 AS rf, 0 AS fl, 0 AS pt, 0 AS rd
        FROM cards WHERE shop_id = p_shop_id
      UNION ALL
      SELECT (created_at AT TIME ZONE v_tz)::date, 0, (outcome = 'accepted')::int, (outcome <> 'accepted')::int,
             (cardinality(flags) > 0)::int, 0, 0
        FROM scans WHERE shop_id = p_shop_id
      UNION ALL
      SELECT (created_at AT TIME ZONE v_tz)::date, 0, 0, 0, 0,
             CASE WHEN kind IN ('scan', 'double_points', 'bonus') THEN delta ELSE 0 END, (kind = 'redemption')::int
        FROM ledger_entries WHERE shop_id = p_shop_id AND kind IN ('scan', 'double_points', 'bonus', 'redemption')
    ) x
    GROUP BY x.day;
END
$$;

CREATE OR REPLACE FUNCTION fidele_daily_stats_timezone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM fidele_daily_stats_rebuild(NEW.id);
  RETURN NULL;
END
$$;

-- The deltas written since the last fold, moved into shop_daily_stats in one transaction (exact whatever runs at the
-- same time: a delta committed after this statement's snapshot waits for the next fold). Returns the days updated.
CREATE OR REPLACE FUNCTION fidele_daily_stats_fold() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_days integer;
BEGIN
  WITH moved AS (
    DELETE FROM shop_daily_deltas RETURNING shop_id, day, new_customers, scans, refused, flagged, points, redemptions
  )
  INSERT INTO shop_daily_stats AS d (shop_id, day, new_customers, scans, refused, flagged, points, redemptions)
    SELECT shop_id, day, sum(new_customers), sum(scans), sum(refused), sum(flagged), sum(points), sum(redemptions)
    FROM moved GROUP BY shop_id, day ORDER BY shop_id, day
  ON CONFLICT (shop_id, day) DO UPDATE SET
    new_customers = d.new_customers + EXCLUDED.new_customers, scans = d.scans + EXCLUDED.scans,
    refused = d.refused + EXCLUDED.refused, flagged = d.flagged + EXCLUDED.flagged,
    points = d.points + EXCLUDED.points, redemptions = d.redemptions + EXCLUDED.redemptions;
  GET DIAGNOSTICS v_days = ROW_COUNT;
  RETURN v_days;
END
$$;
