import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/server/db/client.ts";
import { openTestDatabase } from "../setup/test-db.ts";

/**
 * Issue 30 item 4 (ADR 0052): every table has its place in a sharded PostgreSQL (Citus, distributed by shop). A new
 * table must say where it goes: distributed by its shop (then it has the column), a reference table, one kept on the
 * coordinator, or — debt written down here — a shop's table that still lacks the column.
 */

/** Distributed by `shop_id`, colocated: a shop's rows live together, and each query names its shop. */
const BY_SHOP = [
  "adjustments",
  "api_keys",
  "audit_log",
  "automation_occasions",
  "automations",
  "cards",
  "contest_winnings",
  "contests",
  "counter_tablets",
  "customer_notes",
  "double_points_periods",
  "import_invitations",
  "ledger_entries",
  "message_preferences",
  "messages",
  "prepaid_entries",
  "prepaid_holdings",
  "prepaid_products",
  "prize_lots",
  "receipt_claims",
  "redemptions",
  "referral_codes",
  "referral_programs",
  "referrals",
  "review_requests",
  "review_settings",
  "rewards",
  "scan_claims",
  "scans",
  "shop_cohort_folds",
  "shop_cohort_months",
  "shop_daily_deltas",
  "shop_daily_stats",
  "shop_devices",
  "shop_reviews",
  "shop_rhythms",
  "sms_budgets",
  "sms_outbox",
  "sms_usage",
  "tablet_amount_codes",
  "till_connections",
  "till_sales",
  "vip_tiers",
  "wallet_google_classes",
  "webhook_deliveries",
  "webhook_endpoints",
];

/** Distributed by the shop under another name: the shop itself (`id`) and better-auth's organisation of it. */
const SHOP_ITSELF: Record<string, string> = { shops: "id", organization: "id", member: "organization_id" };

/** Reference tables (copied to every node): people, as every shop's rows join them. */
const REFERENCE = ["user", "profiles", "personal_codes", "featured_contests"];

/** Kept on the coordinator only: sign-in, the instance's own state, outboxes no shop query joins. */
const COORDINATOR = [
  "account",
  "session",
  "session_places",
  "verification",
  "two_factor",
  "consents",
  "push_subscriptions",
  "sms_owner_phones",
  "auth_throttle",
  "channel_pacing",
  "instance_keys",
  "mail_outbox",
  "email_events",
  "wallet_registrations",
];

/**
 * A shop's tables that reach their shop only through a parent (debt: each gets `shop_id` before distribution, its
 * primary key then (shop_id, id)). The list may only shrink.
 */
const SHOP_CHILD_WITHOUT_SHOP_ID: Record<string, string> = {
  contest_entries: "contests",
  contest_prizes: "contests",
  contest_rules: "contests",
  message_deliveries: "messages",
  wallet_passes: "cards",
  webhook_attempts: "webhook_deliveries",
  api_idempotency: "api_keys",
  invitation: "organization",
};

let database: Database;
let tables: Map<string, Set<string>>;

beforeAll(async () => {
  database = await openTestDatabase();
  const { rows } = await database.db.execute<{ table: string; column: string }>(
    `select c.table_name as "table", c.column_name as "column" from information_schema.columns c
     join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
     where c.table_schema = 'public' and t.table_type = 'BASE TABLE'` as never,
  );
  tables = new Map();
  for (const row of rows) {
    if (row.table.startsWith("__drizzle")) continue;
    const columns = tables.get(row.table) ?? new Set<string>();
    columns.add(row.column);
    tables.set(row.table, columns);
  }
});

describe("every table has its place when the database is sharded by shop (ADR 0052)", () => {
  it("each table is in exactly one list", () => {
    const lists = [
      ...BY_SHOP,
      ...Object.keys(SHOP_ITSELF),
      ...REFERENCE,
      ...COORDINATOR,
      ...Object.keys(SHOP_CHILD_WITHOUT_SHOP_ID),
    ];
    expect(lists.length).toBe(new Set(lists).size);
    const unplaced = [...tables.keys()].filter((t) => !lists.includes(t)).sort();
    // A new table: add a `shop_id` and list it in BY_SHOP (or say, in ADR 0052, why it belongs elsewhere).
    expect(unplaced).toEqual([]);
    const gone = lists.filter((t) => !tables.has(t));
    expect(gone).toEqual([]);
  });

  it("a table distributed by shop has its distribution column", () => {
    const missing = BY_SHOP.filter((t) => !tables.get(t)?.has("shop_id"));
    expect(missing).toEqual([]);
    for (const [table, column] of Object.entries(SHOP_ITSELF)) expect(tables.get(table)?.has(column)).toBe(true);
  });

  it("the debt list only holds tables that still lack shop_id (one given the column moves to BY_SHOP)", () => {
    const fixed = Object.keys(SHOP_CHILD_WITHOUT_SHOP_ID).filter((t) => tables.get(t)?.has("shop_id"));
    expect(fixed).toEqual([]);
    for (const parent of Object.values(SHOP_CHILD_WITHOUT_SHOP_ID)) {
      expect([...BY_SHOP, ...Object.keys(SHOP_ITSELF)]).toContain(parent);
    }
  });
});
