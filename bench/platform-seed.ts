import { createHash, createHmac } from "node:crypto";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { sql } from "drizzle-orm";
import { PERSONAL_CODE_ALPHABET } from "../src/domain/loyalty/personal-code.ts";
import type { Database } from "../src/server/db/client.ts";
import { createReward, createShop, createUser } from "../src/server/db/factories.ts";
import { MIGRATIONS_DIR } from "../src/server/db/migrate.ts";
import { parseEnv } from "../src/server/env.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { createDeps } from "../src/server/server.ts";
import { BENCH_SECRET } from "./scan-server.ts";

/**
 * The platform of bench/platform.ts (issue 30), seeded in SQL with generate_series: the same rows every run.
 * - SHOPS shops (BENCH_PLATFORM_SHOPS, default 10,000), each with its owner (signed in) and one reward costing one
 *   visit. Sizes follow a power law: shop i holds CARDS × i^-0.8 / H cards (at least 3): at full size the biggest
 *   ~74,000, the 100th ~1,850, the 1,000th ~290, the median ~80, the smallest ~46 — most shops small, a few big.
 * - CARDS cards (BENCH_PLATFORM_CARDS, default 2,000,000) held by 0.625 × CARDS people (a person has 1.6 cards),
 *   every person signed in (a session each) with a personal code.
 * - A year of history: card k had (7k mod 9) visits (0–8, mean 4) at opening hours of the last 365 days, one in 12
 *   refused (cooldown); a ledger entry per credited visit; one reward handed over per card with 6 visits or more.
 * Bulk rows go in with triggers off (session_replication_role = replica) and the cards are written once, with the
 * totals the ledger and scans make; the daily figures are rebuilt per shop as migration 0017 does.
 */
export const SHOPS = Number(process.env.BENCH_PLATFORM_SHOPS ?? 10_000);
export const CARDS = Number(process.env.BENCH_PLATFORM_CARDS ?? 2_000_000);
export const PEOPLE = Math.max(Math.round(CARDS * 0.625), 1000);
/** The user of card k is 1 + (k × STRIDE mod PEOPLE): a bijection, so a shop never holds a person twice. */
const STRIDE = 1_000_003;
/** A version of this seed: bump it when the rows change, so the cached database is made again. */
const SEED_VERSION = 1;

/** What says whether a cached seed fits: its shape, this file's version and the newest migration. */
export function seedKey(): string {
  const migrations = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return `platform-v${SEED_VERSION}-${SHOPS}-${CARDS}-${migrations.at(-1)}`;
}

/** Shop i: its cards are start+1 … start+n (global card numbers). */
export type ShopSize = { i: number; n: number; start: number };

export type PlatformWorld = {
  sizes: ShopSize[];
  counts: Record<string, number>;
  /** Scans of the seeded year, for the per-shop peak rate. */
  yearScans: number;
};

export const shopId = (i: number) => `p${i}`;
export const shopScanUid = (i: number) => `platscan${String(i).padStart(6, "0")}`;
export const shopCodeSecret = (i: number) => md5(`ps${i}`) + md5(`pt${i}`);
export const rewardSlug = (i: number) => `recompense-p${i}`;
export const userOfCard = (k: number) => 1 + ((k * STRIDE) % PEOPLE);
/** Card k's seeded visits (0–8). */
export const visitsOfCard = (k: number) => (k * 7) % 9;

function md5(text: string) {
  return createHash("md5").update(text).digest("hex");
}

/** The session cookie better-auth reads, for a token the seed stored. */
function cookieOf(token: string) {
  const signature = createHmac("sha256", BENCH_SECRET).update(token).digest("base64");
  return `fidele.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}
export const shopperCookie = (user: number) => cookieOf(md5(`tok-u${user}`));
export const ownerCookie = (i: number) => cookieOf(md5(`tok-o${i}`));

/** Person g's personal code: (g × STRIDE + 7) mod 31^8 written in the code alphabet (as the SQL below). */
export function personalCodeOf(user: number): string {
  let x = (BigInt(user) * BigInt(STRIDE) + 7n) % 31n ** 8n;
  let code = "";
  for (let i = 0; i < 8; i++) {
    code += PERSONAL_CODE_ALPHABET[Number(x % 31n)];
    x /= 31n;
  }
  return code;
}

/** `database`: one connection (the session role is set for the bulk load). */
export async function seedPlatform(database: Database, log: (line: string) => void): Promise<PlatformWorld> {
  const deps = await createDeps(parseEnv({ SECRET: BENCH_SECRET, SEED_DEMO: "0", DATA_DIR: tmpdir() }), {
    database,
    logger: createLogger("warn"),
  });
  const templateOwner = await createUser(deps, { withoutPassword: true, firstName: "Modèle", lastName: "Boutique" });
  const template = await createShop(deps, {
    ownerId: templateOwner.id,
    name: "Boutique modèle",
    rules: { mode: "points", pointsPerVisit: 10 },
  });
  const templateReward = await createReward(deps, { shopId: template.id, title: "Café offert", cost: 10 });
  const q = async (what: string, text: string) => {
    const t0 = performance.now();
    // One statement at a time (PGlite's extended protocol takes one), on the one connection of the seed.
    for (const statement of text.split(/;\s*\n/)) await database.db.execute(sql.raw(statement));
    log(`  ${what}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  const alphabet = PERSONAL_CODE_ALPHABET;
  const digits = Array.from(
    { length: 8 },
    (_, i) => `substr('${alphabet}', ((x / ${31n ** BigInt(i)}) % 31)::int + 1, 1)`,
  );
  await q(
    "helpers",
    `create function bench_uuid(t text) returns text language sql immutable
       as $$ select overlay(overlay(md5(t) placing '4' from 13) placing '8' from 17)::uuid::text $$;
     create function bench_code(x bigint) returns text language sql immutable as $$ select ${digits.join(" || ")} $$;
     create table bench_shops as
       with w as (select i, power(i::float8, -0.8) as w from generate_series(1, ${SHOPS}) i),
            t as (select sum(w) as total from w),
            s as (select i, greatest(3, floor(${CARDS} * w / total))::int as n from w, t)
       select i, n, (sum(n) over (order by i) - n)::int as start from s;
     create table bench_cards as
       select s.i, s.start + j as k, 1 + ((s.start + j)::bigint * ${STRIDE} % ${PEOPLE})::int as u,
              ((s.start + j) * 7 % 9) as v
       from bench_shops s, generate_series(1, s.n) j;
     set session_replication_role = replica`,
  );
  await q(
    "people",
    `insert into "user" (id, name, email, email_verified, role, created_at, updated_at)
       select 'u' || g, 'Prénom' || (g % 997) || ' Nom' || g, 'client' || g || '@exemple.fr', true, 'user',
              now() - (g % 900) * interval '1 day', now()
       from generate_series(1, ${PEOPLE}) g;
     insert into profiles (id, first_name, last_name, birthday)
       select 'u' || g, 'Prénom' || (g % 997), 'Nom' || g, date '1970-01-01' + (g % 12000) from generate_series(1, ${PEOPLE}) g;
     insert into personal_codes (user_id, code)
       select 'u' || g, bench_code((g::bigint * ${STRIDE} + 7) % ${31n ** 8n}) from generate_series(1, ${PEOPLE}) g;
     insert into session (id, expires_at, token, created_at, updated_at, user_id)
       select 'su' || g, now() + interval '30 days', md5('tok-u' || g), now(), now(), 'u' || g
       from generate_series(1, ${PEOPLE}) g`,
  );
  await q(
    "shops",
    `insert into "user" (id, name, email, email_verified, role, created_at, updated_at)
       select 'o' || i, 'Gérant ' || i, 'gerant' || i || '@exemple.fr', true, 'user', now() - interval '2 years', now()
       from generate_series(1, ${SHOPS}) i;
     insert into profiles (id, first_name, last_name) select 'o' || i, 'Gérant', 'Boutique ' || i from generate_series(1, ${SHOPS}) i;
     insert into session (id, expires_at, token, created_at, updated_at, user_id)
       select 'so' || i, now() + interval '30 days', md5('tok-o' || i), now(), now(), 'o' || i from generate_series(1, ${SHOPS}) i;
     insert into organization (id, name, slug, created_at)
       select 'p' || i, 'Boutique ' || i, 'boutique-' || i, now() - interval '2 years' from generate_series(1, ${SHOPS}) i;
     insert into shops
       select (jsonb_populate_record(null::shops, to_jsonb(t) || jsonb_build_object(
         'id', 'p' || i, 'slug', 'boutique-' || i, 'name', 'Boutique ' || i,
         'scan_uid', 'platscan' || lpad(i::text, 6, '0'), 'code_secret', md5('ps' || i) || md5('pt' || i),
         'created_at', now() - interval '2 years'))).*
       from shops t, generate_series(1, ${SHOPS}) i where t.id = '${template.id}';
     insert into member (id, organization_id, user_id, role, created_at)
       select 'mp' || i, 'p' || i, 'o' || i, 'owner', now() from generate_series(1, ${SHOPS}) i;
     insert into rewards
       select (jsonb_populate_record(null::rewards, to_jsonb(t) || jsonb_build_object(
         'id', bench_uuid('rw' || i), 'shop_id', 'p' || i, 'slug', 'recompense-p' || i))).*
       from rewards t, generate_series(1, ${SHOPS}) i where t.id = '${templateReward.id}'`,
  );
  // Visit j of card k: day (k + 53 j) mod 365 back, between 9:00 and 19:00.
  await q(
    "scans",
    `insert into scans (id, shop_id, user_id, actor_id, card_id, scan_uid, outcome, method, delta, flags, device_id,
                        idempotency_key, response, created_at)
       select 'ps' || c.k || '-' || j, 'p' || c.i, 'u' || c.u, 'u' || c.u, bench_uuid('c' || c.k), 'seed',
              case when (c.k + j) % 12 = 0 then 'cooldown' else 'accepted' end, 'rotating',
              case when (c.k + j) % 12 = 0 then 0 else 10 end, '{}'::text[], 'bench-device-' || c.u, 'ps' || c.k || '-' || j, '{}'::jsonb,
              date_trunc('day', now()) - ((c.k + 53 * j) % 365) * interval '1 day'
                + interval '9 hours' + ((c.k * 17 + j * 7919) % 36000) * interval '1 second'
       from bench_cards c, generate_series(1, c.v) j`,
  );
  await q(
    "ledger",
    `insert into ledger_entries (id, card_id, shop_id, kind, delta, actor_id, ref_id, idempotency_key, created_at)
       select 'l' || id, card_id, shop_id, 'scan', delta, user_id, id, idempotency_key, created_at
       from scans where outcome = 'accepted' and scan_uid = 'seed'`,
  );
  await q(
    "redemptions",
    `insert into redemptions (id, shop_id, reward_id, card_id, user_id, code, status, source, title, cost, expires_at,
                              idempotency_key, decided_at, created_at)
       select bench_uuid('r' || c.k), 'p' || c.i, bench_uuid('rw' || c.i), bench_uuid('c' || c.k), 'u' || c.u,
              translate(upper(substr(md5('r' || c.k), 1, 6)), '01', 'XY'), 'validated', 'reward', 'Café offert', 10,
              now() - (c.k % 300) * interval '1 day' + interval '10 minutes', 'r' || c.k,
              now() - (c.k % 300) * interval '1 day' + interval '5 minutes', now() - (c.k % 300) * interval '1 day'
       from bench_cards c where c.v >= 6;
     insert into ledger_entries (id, card_id, shop_id, kind, delta, actor_id, reason, ref_id, idempotency_key, created_at)
       select 'lr' || id, card_id, shop_id, 'redemption', -cost, user_id, title, id, 'redeem:' || id, created_at
       from redemptions where idempotency_key like 'r%' and shop_id like 'p%'`,
  );
  // The cards, once, with what the triggers would have kept.
  await q(
    "cards",
    `insert into cards (id, shop_id, user_id, balance, lifetime, visits, last_scan_at, created_at, updated_at,
                        sort_name, search_text)
       select bench_uuid('c' || c.k), 'p' || c.i, 'u' || c.u, coalesce(l.balance, 0), coalesce(l.lifetime, 0),
              coalesce(s.visits, 0), s.last, now() - interval '400 days', now(), t.sort_name, t.search_text
       from bench_cards c
       left join (select card_id, sum(delta)::int as balance,
                         coalesce(sum(delta) filter (where kind = 'scan'), 0)::int as lifetime
                  from ledger_entries group by card_id) l on l.card_id = bench_uuid('c' || c.k)
       left join (select card_id, count(*)::int as visits, max(created_at) as last
                  from scans where outcome = 'accepted' group by card_id) s on s.card_id = bench_uuid('c' || c.k)
       cross join lateral fidele_card_text('u' || c.u) t`,
  );
  await q("session role", "set session_replication_role = origin");
  await q(
    "daily figures, devices",
    `select fidele_daily_stats_rebuild(id) from shops where id like 'p%';
     insert into shop_devices (shop_id, device_id, device_no, first_seen_at)
       select shop_id, device_id, row_number() over (partition by shop_id order by min(created_at), device_id), min(created_at)
       from scans where shop_id like 'p%' and device_id is not null group by shop_id, device_id
       on conflict do nothing`,
  );
  await q("vacuum analyze", "vacuum analyze");
  return readPlatformWorld(database);
}

/** The shop sizes, the seeded year's scans and the tables' rows, read back (a cached seed is read, not made). */
export async function readPlatformWorld(database: Database): Promise<PlatformWorld> {
  const sizes = (
    await database.db.execute<ShopSize>(sql.raw("select i, n, start from bench_shops order by i"))
  ).rows.map((r) => ({ i: Number(r.i), n: Number(r.n), start: Number(r.start) }));
  const yearScans = Number(
    (await database.db.execute<{ n: number }>(sql.raw("select count(*)::int as n from scans where scan_uid = 'seed'")))
      .rows[0]!.n,
  );
  const count = async (text: string) => Number((await database.db.execute<{ n: number }>(sql.raw(text))).rows[0]!.n);
  const counts: Record<string, number> = {};
  for (const table of ["shops", "cards", "scans", "ledger_entries", "redemptions", "session", "shop_daily_stats"]) {
    counts[table] = await count(`select count(*)::int as n from ${table}`);
  }
  return { sizes, counts, yearScans };
}
