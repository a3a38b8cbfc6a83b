// `tsx scripts/make-upgrade-fixture.ts`: writes tests/fixtures/upgrade/<last migration>.sql.gz, a backup of a database
// made by this release's migrations with at least one row in every table (docs/decisions/0039). The upgrade test
// (tests/api/upgrade.test.ts) restores it and migrates it to head: every row must still be there. Run it on the
// release whose schema the fixture should freeze; the rows below fit the schema of 0022 (the demo seed plus one row
// for each table the seed leaves empty), and will need their columns checked if this is run on a later release.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { listTables, rawSql, writeBackup } from "../src/server/db/backup.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { seedDemo } from "../src/server/db/seed.ts";
import { parseEnv } from "../src/server/env.ts";
import { createDeps } from "../src/server/server.ts";

const database = await openDatabase({ memory: true, worker: false });
const env = parseEnv({ SECRET: "x".repeat(32), DATA_DIR: "/nonexistent-fixture", LOG_LEVEL: "warn", SEED_DEMO: "0" });
const deps = await createDeps(env, { database });
await seedDemo(deps, deps.logger);
const sql = rawSql(database);

const [ids] = await sql.query<{
  owner: string;
  shopper: string;
  shop: string;
  reward: string;
  card: string;
  contest: string;
  prize: string;
  lot: string;
}>(`
  select (select id from "user" where email = 'commercant@fidele.demo') as owner,
         (select id from "user" where email = 'client@fidele.demo') as shopper,
         (select id from shops order by created_at limit 1) as shop,
         (select r.id from rewards r order by r.created_at limit 1) as reward,
         (select c.id from cards c join "user" u on u.id = c.user_id where u.email = 'client@fidele.demo' limit 1) as card,
         (select id from contests order by created_at limit 1) as contest,
         (select id from contest_prizes order by id limit 1) as prize,
         (select id from prize_lots order by id limit 1) as lot`);
if (!ids) throw new Error("seed missing");
const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
const { owner, shopper, shop, reward, card, contest, prize, lot } = Object.fromEntries(
  Object.entries(ids).map(([k, v]) => [k, q(String(v))]),
) as Record<keyof typeof ids, string>;

await sql.exec(`
insert into audit_log (id, actor_id, shop_id, action, target, details, ip) values
  ('fx-audit', ${owner}, ${shop}, 'card.correct', ${shopper}, '{"delta": 2}', '203.0.113.7');
insert into auth_throttle (key, window_start, count) values ('sign-in:203.0.113.7', now(), 1);
insert into channel_pacing (channel, next_at) values ('email', now());
insert into contest_entries (id, contest_id, user_id, period, n, prize_id, marketing_consent)
  values ('fx-entry', ${contest}, ${shopper}, '2026-11', 1, ${prize}, true);
insert into contest_winnings (id, shop_id, contest_id, prize_id, lot_id, entry_id, user_id, draw_rank, code, status, claim_by)
  values ('fx-win', ${shop}, ${contest}, ${prize}, ${lot}, 'fx-entry', ${shopper}, 1, 'FXWIN1', 'pending', now() + interval '30 days');
insert into customer_notes (shop_id, user_id, note, updated_by) values (${shop}, ${shopper}, 'Préfère la tradition', ${owner});
insert into messages (id, shop_id, author_id, audience, title, body, status, total, kind)
  values ('fx-msg', ${shop}, ${owner}, 'all', 'Nouveautés', 'La galette arrive', 'sent', 1, 'message');
insert into message_deliveries (id, message_id, user_id, channel, status, delivered_at)
  values ('fx-delivery', 'fx-msg', ${shopper}, 'inbox', 'delivered', now());
insert into email_events (id, email, kind, delivery_id, detail) values ('fx-email-event', 'client@fidele.demo', 'unsubscribe', 'fx-delivery', 'lien');
insert into invitation (id, organization_id, email, role, status, expires_at, created_at, inviter_id)
  values ('fx-invite', ${shop}, 'equipier@fidele.demo', 'member', 'pending', now() + interval '7 days', now(), ${owner});
insert into mail_outbox (id, "to", subject, text, html, kind, status) values ('fx-mail', 'client@fidele.demo', 'Bienvenue', 'Bonjour', '<p>Bonjour</p>', 'verify', 'kept');
insert into message_preferences (id, user_id, shop_id, channel, granted, wording) values ('fx-pref', ${shopper}, ${shop}, 'push', true, 'Recevoir les notifications');
insert into personal_codes (user_id, code) values (${shopper}, 'FXCODE12');
insert into push_subscriptions (id, user_id, device_id, endpoint, p256dh, auth, user_agent)
  values ('fx-push', ${shopper}, 'fx-device', 'https://fcm.googleapis.com/fcm/send/fx', 'BFx', 'authfx', 'Mozilla/5.0');
insert into redemptions (id, shop_id, reward_id, card_id, user_id, code, status, title, cost, expires_at, idempotency_key)
  values ('fx-redemption', ${shop}, ${reward}, ${card}, ${shopper}, 'FXR123', 'pending', 'Baguette', 0, now() + interval '1 day', 'fx-key');
insert into scan_claims (nonce, shop_id, user_id, idempotency_key) values ('fx-nonce', ${shop}, ${shopper}, 'fx-claim');
insert into session (id, expires_at, token, created_at, updated_at, ip_address, user_agent, user_id)
  values ('fx-session', now() + interval '7 days', 'fx-token', now(), now(), '203.0.113.7', 'Mozilla/5.0', ${shopper});
insert into session_places (session_id, time_zone, network) values ('fx-session', 'Europe/Paris', 'Orange');
insert into shop_daily_stats (shop_id, day, new_customers, scans, refused, flagged, points, redemptions)
  values (${shop}, current_date - 1, 1, 3, 0, 0, 3, 0);
insert into shop_reviews (id, shop_id, user_id, rating, comment) values ('fx-review', ${shop}, ${shopper}, 5, 'Excellent pain');
insert into sms_budgets (shop_id, monthly_segments) values (${shop}, 100);
insert into sms_outbox (id, shop_id, "to", text, kind, provider, status, segments) values ('fx-sms', ${shop}, '+33612345678', 'Promo', 'campaign', 'outbox', 'kept', 1);
insert into sms_usage (shop_id, month, segments) values (${shop}, '2026-11', 1);
insert into two_factor (id, secret, backup_codes, user_id, verified) values ('fx-2fa', 'secret', 'codes', ${owner}, true);
insert into verification (id, identifier, value, expires_at, created_at, updated_at)
  values ('fx-verification', 'email-verification', 'token', now() + interval '1 day', now(), now());
`);

const empty: string[] = [];
for (const t of await listTables(sql)) {
  const [row] = await sql.query<{ n: number }>(`select count(*)::int as n from "${t.schema}"."${t.name}"`);
  if (!row?.n) empty.push(`${t.schema}.${t.name}`);
}
if (empty.length) throw new Error(`Tables still empty: ${empty.join(", ")}`);

const parts: string[] = [];
// A fixed date: the fixture's bytes do not change when it is made again from the same release.
const summary = await writeBackup(database, (chunk) => void parts.push(chunk), new Date("2026-11-26T00:00:00Z"));
const dir = path.resolve(import.meta.dirname, "../tests/fixtures/upgrade");
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `${summary.migration}.sql.gz`);
writeFileSync(file, gzipSync(parts.join("")));
console.log(`${file}: ${summary.rows} rows in ${summary.tables} tables`);
await database.close();
