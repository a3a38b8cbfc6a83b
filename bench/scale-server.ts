import { createHash, createHmac } from "node:crypto";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { openDatabase } from "../src/server/db/client.ts";
import { createReward, createShop, createUser } from "../src/server/db/factories.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { foldRetention } from "../src/server/modules/cards/retention.service.ts";
import { measureAutomations } from "../src/server/modules/messages/automations.service.ts";
import { startServer } from "../src/server/server.ts";
import { benchEnv } from "./scan-server.ts";

/**
 * The server side of bench/scale.ts (issue 11): the real server (production settings) in its own process on
 * PostgreSQL (BENCH_SCALE_DATABASE_URL, a fresh database), with one big shop among BENCH_SCALE_SHOPS small ones,
 * seeded in SQL with generate_series (no randomness: the same rows every run, but for the factories' uuids):
 * - the big shop: BENCH_SCALE_CUSTOMERS customers (default 50,000), BENCH_SCALE_SCANS scans over a year (default
 *   500,000; one in 9 refused, one in 500 flagged, 20,000 devices), a ledger entry per accepted scan plus a welcome
 *   bonus per card and one per redemption (~500,000 rows), 5,010 redemptions (10 pending);
 * - 2,000 small shops (clones of one made by the factory), 25 customers and 50 scans each;
 * - (issue 27) the big shop's five automations, 5,000 win-back occasions over 90 days, and the cohort grid folded.
 * Bulk rows go in with triggers off (session_replication_role = replica); what the triggers would have kept
 * (card totals, names and search text, daily figures, device numbers) is then made in bulk, as migration 0017 does.
 * It prints one JSON line (port, ids, session cookies) and answers the parent's IPC messages: "mark" (collect
 * garbage, reset the event-loop delay histogram and the RSS peak) and "read" (RSS now and its peak since the
 * mark, event-loop delay p50/p99/max in ms).
 */
const CUSTOMERS = Number(process.env.BENCH_SCALE_CUSTOMERS ?? 50_000);
const SCANS = Number(process.env.BENCH_SCALE_SCANS ?? 500_000);
const SMALL_SHOPS = Number(process.env.BENCH_SCALE_SHOPS ?? 2_000);
const REDEMPTIONS = 5_010;
/** bench_uuid('c4242') (below): the big shop's card of customer u4242. */
const md5 = createHash("md5").update("c4242").digest("hex");
const v4 = `${md5.slice(0, 12)}4${md5.slice(13, 16)}8${md5.slice(17)}`;
const CARD_4242 = v4.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");

export type ScaleWorld = {
  port: number;
  seedSeconds: number;
  big: { id: string; slug: string; ownerCookie: string; cardId: string; rewardId: string; rewardSlug: string };
  small: { id: string; ownerCookie: string };
  shopper: { id: string; cookie: string; cardId: string };
  adminCookie: string;
  counts: Record<string, number>;
};

async function seed(url: string, ids: { big: string; template: string; smallOwner: string; reward: string }) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = (text: string, values: unknown[] = []) => client.query(text, values);
  try {
    // Card and redemption ids are uuids (the routes check them): v4-shaped, from an md5 of a name.
    await q(`create function bench_uuid(t text) returns text language sql immutable
             as $$ select overlay(overlay(md5(t) placing '4' from 13) placing '8' from 17)::uuid::text $$`);
    await q("set session_replication_role = replica");
    await q(
      `insert into "user" (id, name, email, email_verified, role, created_at, updated_at)
       select 'u' || g, 'Prénom' || (g % 997) || ' Nom' || g, 'client' || g || '@exemple.fr', true, 'user',
              now() - (g % 900) * interval '1 day', now()
       from generate_series(1, $1::int) g`,
      [CUSTOMERS],
    );
    await q(
      `insert into profiles (id, first_name, last_name, birthday)
       select 'u' || g, 'Prénom' || (g % 997), 'Nom' || g, date '1970-01-01' + (g % 12000)
       from generate_series(1, $1::int) g`,
      [CUSTOMERS],
    );
    // The small shops: clones of the template shop, each with its organization and owner.
    await q(
      `insert into organization (id, name, slug, created_at)
       select 'small-' || g, 'Petite boutique ' || g, 'petite-boutique-' || g, now() - g * interval '1 hour'
       from generate_series(1, $1::int) g`,
      [SMALL_SHOPS],
    );
    await q(
      `insert into shops
       select (jsonb_populate_record(null::shops, to_jsonb(t) || jsonb_build_object(
         'id', 'small-' || g, 'slug', 'petite-boutique-' || g, 'name', 'Petite boutique ' || g,
         'scan_uid', 'smallscan' || lpad(g::text, 6, '0'), 'code_secret', md5('s' || g) || md5('t' || g),
         'created_at', now() - g * interval '1 hour'))).*
       from shops t, generate_series(1, $2::int) g where t.id = $1`,
      [ids.template, SMALL_SHOPS],
    );
    await q(
      `insert into member (id, organization_id, user_id, role, created_at)
       select 'm-small-' || g, 'small-' || g, $1, 'owner', now() from generate_series(1, $2::int) g`,
      [ids.smallOwner, SMALL_SHOPS],
    );
    // Cards: every customer at the big shop; 25 at each small shop.
    await q(
      `insert into cards (id, shop_id, user_id, created_at)
       select bench_uuid('c' || g), $1, 'u' || g, now() - (g % 700) * interval '1 day' from generate_series(1, $2::int) g`,
      [ids.big, CUSTOMERS],
    );
    await q(
      `insert into cards (id, shop_id, user_id, created_at)
       select bench_uuid('sc' || s || '-' || i), 'small-' || s, 'u' || (1 + (s * 25 + i) % $2::int), now() - ((s + i) % 400) * interval '1 day'
       from generate_series(1, $1::int) s, generate_series(1, 25) i`,
      [SMALL_SHOPS, CUSTOMERS],
    );
    // Scans: the big shop's year, then 50 per small shop.
    await q(
      `insert into scans (id, shop_id, user_id, actor_id, card_id, scan_uid, outcome, method, delta, flags, device_id,
                          idempotency_key, response, created_at)
       select 'bs' || g, $1, 'u' || (1 + g % $2::int), 'u' || (1 + g % $2::int), bench_uuid('c' || (1 + g % $2::int)), 'seed',
              case when g % 9 = 0 then 'cooldown' else 'accepted' end, 'rotating',
              case when g % 9 = 0 then 0 else 10 end,
              case when g % 500 = 0 then array['shared_device'] else '{}'::text[] end, 'd' || (g % 20000),
              'bs' || g, '{}'::jsonb, now() - (g * (365 * 86400 / $3::float8)) * interval '1 second'
       from generate_series(1, $3::int) g`,
      [ids.big, CUSTOMERS, SCANS],
    );
    await q(
      `insert into scans (id, shop_id, user_id, actor_id, card_id, scan_uid, outcome, method, delta, flags, device_id,
                          idempotency_key, response, created_at)
       select 'ss' || s || '-' || j, 'small-' || s, 'u' || (1 + (s * 25 + 1 + j % 25) % $2::int),
              'u' || (1 + (s * 25 + 1 + j % 25) % $2::int), bench_uuid('sc' || s || '-' || (1 + j % 25)), 'seed',
              case when j % 9 = 0 then 'cooldown' else 'accepted' end, 'rotating', case when j % 9 = 0 then 0 else 10 end,
              '{}'::text[], 'sd' || s || '-' || (j % 30), 'ss' || s || '-' || j, '{}'::jsonb, now() - j * interval '5 days'
       from generate_series(1, $1::int) s, generate_series(1, 50) j`,
      [SMALL_SHOPS, CUSTOMERS],
    );
    // The ledger: each accepted scan, a welcome bonus per card, then the redemptions.
    await q(
      `insert into ledger_entries (id, card_id, shop_id, kind, delta, actor_id, ref_id, idempotency_key, created_at)
       select 'l' || id, card_id, shop_id, 'scan', delta, user_id, id, idempotency_key, created_at
       from scans where outcome = 'accepted'`,
    );
    await q(
      `insert into ledger_entries (id, card_id, shop_id, kind, delta, actor_id, reason, created_at)
       select 'lb' || id, id, shop_id, 'bonus', 5, null, 'Bonus de bienvenue', created_at from cards`,
    );
    await q(
      `insert into redemptions (id, shop_id, reward_id, card_id, user_id, code, status, source, title, cost, expires_at,
                                idempotency_key, decided_at, created_at)
       select bench_uuid('r' || g), $1, $2, bench_uuid('c' || (1 + (g * 7) % $3::int)), 'u' || (1 + (g * 7) % $3::int), 'B' || lpad(g::text, 5, '0'),
              case when g <= 10 then 'pending' else 'validated' end, 'reward', 'Café offert', 50,
              now() + interval '10 minutes', 'r' || g,
              case when g <= 10 then null else now() - (g % 365) * interval '1 day' + interval '5 minutes' end,
              now() - (case when g <= 10 then 0 else g % 365 end) * interval '1 day'
       from generate_series(1, $4::int) g`,
      [ids.big, ids.reward, CUSTOMERS, REDEMPTIONS],
    );
    await q(
      `insert into ledger_entries (id, card_id, shop_id, kind, delta, actor_id, reason, ref_id, idempotency_key, created_at)
       select 'lr' || id, card_id, shop_id, 'redemption', -cost, user_id, title, id, 'redeem:' || id, created_at
       from redemptions where shop_id = $1`,
      [ids.big],
    );
    await q("set session_replication_role = origin");
    // What the triggers keep, made in bulk.
    await q(
      `update cards c set balance = x.balance, lifetime = x.lifetime
       from (select card_id, sum(delta)::int as balance,
                    coalesce(sum(delta) filter (where kind in ('scan', 'bonus', 'double_points', 'adjustment')), 0)::int as lifetime
             from ledger_entries group by card_id) x
       where x.card_id = c.id`,
    );
    await q(
      `update cards c set visits = x.visits, last_scan_at = x.last
       from (select card_id, count(*)::int as visits, max(created_at) as last from scans where outcome = 'accepted'
             group by card_id) x
       where x.card_id = c.id`,
    );
    // (Skipped on a database without them: the bench also runs on older code, for before/after figures.)
    const has = async (name: string) => (await q("select to_regproc($1) is not null as ok", [name])).rows[0].ok;
    if (await has("fidele_card_text")) {
      await q(
        `update cards c set sort_name = t.sort_name, search_text = t.search_text
         from cards k cross join lateral fidele_card_text(k.user_id) t where k.id = c.id`,
      );
    }
    if (await has("fidele_daily_stats_rebuild")) {
      await q("select fidele_daily_stats_rebuild(id) from shops");
      await q(
        `insert into shop_devices (shop_id, device_id, device_no, first_seen_at)
         select shop_id, device_id, row_number() over (partition by shop_id order by min(created_at), device_id), min(created_at)
         from scans where shop_id is not null and device_id is not null group by shop_id, device_id
         on conflict do nothing`,
      );
    }
    // Issue 27: the big shop's automations (off, so the 5-minute job sends nothing during the timed reads) and a
    // win-back's last 90 days: 5,000 occasions, one in ten held out.
    if ((await q("select to_regclass('automations') is not null as ok")).rows[0].ok) {
      await q(
        `insert into automations (shop_id, kind, enabled, days, title, body, holdout_percent)
         select $1, k, false, case when k in ('win_back', 'reward_waiting') then 30 end, 'Titre', 'Texte', 10
         from unnest(array['welcome', 'win_back', 'reward_waiting', 'birthday', 'almost_full']) k`,
        [ids.big],
      );
      await q(
        `insert into automation_occasions (automation_id, shop_id, user_id, card_id, occasion, since, decided_at, holdout)
         select a.id, $1, 'u' || (1 + g * 9 % $2::int), bench_uuid('c' || (1 + g * 9 % $2::int)), 'absence:' || g,
                now() - (g % 90 + 30) * interval '1 day', now() - (g % 90) * interval '1 day', g % 10 = 0
         from automations a, generate_series(1, 5000) g where a.shop_id = $1 and a.kind = 'win_back'`,
        [ids.big, CUSTOMERS],
      );
    }
    // The bulk updates above left every card three or four times over; a live table is vacuumed as it goes.
    await q("vacuum full cards");
    await q("vacuum analyze");
    // Flush what the bulk load dirtied now: a live database is not halfway through writing 600k fresh rows,
    // and a checkpoint falling among the timed reads stalled one of them 300 ms (p95 of 15 runs is their worst).
    await q("checkpoint");
    const counts: Record<string, number> = {};
    for (const table of ["shops", "cards", "scans", "ledger_entries", "redemptions", "shop_daily_stats", "shop_devices"]) {
      if (!(await q("select to_regclass($1) is not null as ok", [table])).rows[0].ok) continue;
      counts[table] = Number((await q(`select count(*)::int as n from ${table}`)).rows[0].n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

async function main() {
  const url = process.env.BENCH_SCALE_DATABASE_URL;
  if (!url) throw new Error("BENCH_SCALE_DATABASE_URL is required");
  const database = await openDatabase({ url, poolSize: 10 });
  const server = await startServer(benchEnv(), { database, logger: createLogger("warn") });
  const deps = server.deps;
  const ctx = await deps.auth.$context;
  const cookieFor = async (userId: string) => {
    const session = await ctx.internalAdapter.createSession(userId);
    const signature = createHmac("sha256", deps.env.SECRET).update(session.token).digest("base64");
    return `fidele.session_token=${encodeURIComponent(`${session.token}.${signature}`)}`;
  };

  const started = performance.now();
  const owner = await createUser(deps, { withoutPassword: true, firstName: "Grande", lastName: "Boutique" });
  const big = await createShop(deps, { ownerId: owner.id, name: "La Grande Boutique", rules: { mode: "points", pointsPerVisit: 10 } });
  const smallOwner = await createUser(deps, { withoutPassword: true, firstName: "Petite", lastName: "Boutique" });
  const template = await createShop(deps, { ownerId: smallOwner.id, name: "Petite boutique modèle" });
  const admin = await createUser(deps, { withoutPassword: true, role: "admin" });
  const reward = await createReward(deps, { shopId: big.id, title: "Café offert", cost: 50 });
  const counts = await seed(url, { big: big.id, template: template.id, smallOwner: smallOwner.id, reward: reward.id });
  // The retention rollups (cohort grid, rhythm), as the hourly job retention.fold keeps them (issue 27).
  counts.retentionShops = await foldRetention(deps.db, new Date(), Number.POSITIVE_INFINITY);
  // What followed the win-back's occasions, as the job automations.measure keeps it.
  counts.occasionsMeasured = (await measureAutomations(deps.db, new Date())).occasions;
  const seedSeconds = (performance.now() - started) / 1000;

  const world: ScaleWorld = {
    port: server.port,
    seedSeconds,
    big: { id: big.id, slug: big.slug, ownerCookie: await cookieFor(owner.id), cardId: CARD_4242, rewardId: reward.id, rewardSlug: reward.slug },
    small: { id: "small-1", ownerCookie: await cookieFor(smallOwner.id) },
    shopper: { id: "u4242", cookie: await cookieFor("u4242"), cardId: CARD_4242 },
    adminCookie: await cookieFor(admin.id),
    counts,
  };

  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let peakRss = process.memoryUsage.rss();
  let baseRss = peakRss;
  setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10).unref();
  process.on("message", (message: { type: string }) => {
    if (message.type === "mark") {
      (globalThis as { gc?: () => void }).gc?.();
      delay.reset();
      baseRss = process.memoryUsage.rss();
      peakRss = baseRss;
      process.send!({ type: "marked", rss: baseRss });
    } else if (message.type === "read") {
      process.send!({
        type: "stats",
        baseRss,
        rss: process.memoryUsage.rss(),
        peakRss,
        delayP50: delay.percentile(50) / 1e6,
        delayP99: delay.percentile(99) / 1e6,
        delayMax: delay.max / 1e6,
      });
    }
  });
  process.stdout.write(`${JSON.stringify(world)}\n`);
  const stop = () => {
    void server.close().finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
