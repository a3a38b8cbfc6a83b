import { type SQL, sql } from "drizzle-orm";

/**
 * RGPD by itself (issue 16, item 9; issue 22, rows 8 and 14): a shopper downloads everything about them at once,
 * and nothing about anyone else; and erases their account, every row and every text that names them.
 *
 * EXPORT_SOURCES lists, table by table, which rows are about one person. tests/api/rgpd.test.ts reads the database
 * catalogue (every foreign key to "user"(id) and every column named user_id) and fails when a table is missing here,
 * so a new table cannot be forgotten. Secrets (password hash, session tokens, 2FA secret, push keys) are left out:
 * they are not "about" the person and would only help whoever gets hold of the archive. Other people's data in a row
 * about them is blanked (`redact`): the IP address of an audit row someone else acted in, the address of someone
 * they invited.
 */
/** A row as the database gives it. */
export type Row = Record<string, unknown>;
type Me = { id: string; email: string };
export type Source =
  | { where: (userId: string, email: string) => SQL; omit?: readonly string[]; redact?: (row: Row, me: Me) => Row }
  | { query: (userId: string) => SQL };

/** SQL: the person's numbers — the profile's, and the one they verified (or are verifying) for test SMS (ADR 0032). */
export const phonesOf = (u: string) => sql`select phone from profiles where id = ${u}
  union select verified_phone from sms_owner_phones where user_id = ${u}
  union select pending_phone from sms_owner_phones where user_id = ${u}`;

export const EXPORT_SOURCES = {
  user: { where: (u) => sql`id = ${u}` },
  profiles: { where: (u) => sql`id = ${u}` },
  account: {
    where: (u) => sql`user_id = ${u}`,
    omit: ["password", "access_token", "refresh_token", "id_token"],
  },
  session: { where: (u) => sql`user_id = ${u}`, omit: ["token"] },
  two_factor: { where: (u) => sql`user_id = ${u}`, omit: ["secret", "backup_codes"] },
  member: { where: (u) => sql`user_id = ${u}` },
  invitation: {
    where: (u, e) => sql`inviter_id = ${u} or lower(email) = lower(${e})`,
    // Someone they invited: that person's address is theirs, not the inviter's.
    redact: (row, me) => (String(row.email).toLowerCase() === me.email.toLowerCase() ? row : { ...row, email: null }),
  },
  personal_codes: { where: (u) => sql`user_id = ${u}` },
  consents: { where: (u) => sql`user_id = ${u}` },
  cards: { where: (u) => sql`user_id = ${u}` },
  ledger_entries: { where: (u) => sql`card_id in (select id from cards where user_id = ${u})` },
  scans: { where: (u) => sql`user_id = ${u}` },
  scan_claims: { where: (u) => sql`user_id = ${u}` },
  // Receipt codes they scanned (issue 29, ADR 0053): the till's ticket number, spent once.
  receipt_claims: { where: (u) => sql`user_id = ${u}` },
  // Sales and refunds a shop's till reported with their code (ADR 0051): the ticket, its amount, the points.
  till_sales: { where: (u) => sql`user_id = ${u}` },
  redemptions: { where: (u) => sql`user_id = ${u}` },
  // Bundles and gift cards they hold, or that wait for their address (ADR 0049), and their ledgers.
  prepaid_holdings: {
    where: (u, e) => sql`user_id = ${u} or (user_id is null and lower(recipient_email) = lower(${e}))`,
    omit: ["claim_code", "sold_by"],
  },
  prepaid_entries: { where: (u) => sql`holding_id in (select id from prepaid_holdings where user_id = ${u})` },
  import_invitations: { where: (u) => sql`claimed_by = ${u}`, omit: ["code", "created_by"] },
  customer_notes: { where: (u) => sql`user_id = ${u}` },
  shop_reviews: { where: (u) => sql`user_id = ${u}` },
  contest_entries: { where: (u) => sql`user_id = ${u}` },
  contest_winnings: { where: (u) => sql`user_id = ${u}` },
  messages: { where: (u) => sql`author_id = ${u}` },
  message_deliveries: { where: (u) => sql`user_id = ${u}` },
  // What the messages they received said (their deliveries hold only the status): title and text, by any channel.
  messages_received: {
    query: (u) => sql`
      select d.id as delivery_id, d.channel, d.status, d.created_at, d.read_at, s.name as shop, m.kind, m.title,
        m.subject, m.body, m.link_url
      from message_deliveries d join messages m on m.id = d.message_id left join shops s on s.id = m.shop_id
      where d.user_id = ${u} order by d.created_at, d.id`,
  },
  message_preferences: { where: (u) => sql`user_id = ${u}` },
  automation_occasions: { where: (u) => sql`user_id = ${u}` },
  review_requests: { where: (u) => sql`user_id = ${u}` },
  // Parrainage (ADR 0048): their link, and who they brought or were brought by; a friend's device and network are
  // the friend's, not the sponsor's.
  referral_codes: { where: (u) => sql`user_id = ${u}` },
  referrals: {
    where: (u) => sql`sponsor_id = ${u} or friend_id = ${u}`,
    redact: (row, me) => (row.friend_id === me.id ? row : { ...row, device_id: null, network: null }),
  },
  push_subscriptions: { where: (u) => sql`user_id = ${u}`, omit: ["endpoint", "p256dh", "auth"] },
  // The cards they put in a phone's wallet (issue 26); the pass's token and the devices' push tokens are secrets.
  wallet_passes: { where: (u) => sql`user_id = ${u}`, omit: ["auth_token"] },
  session_places: { where: (u) => sql`session_id in (select id from session where user_id = ${u})` },
  audit_log: {
    where: (u, e) =>
      sql`actor_id = ${u} or target = ${u} or lower(target) = lower(${e}) or target in (select id from cards where user_id = ${u})`,
    // The address an owner or an admin acted from is theirs: only the person's own stays; so is the e-mail of
    // someone the person invited.
    redact: (row, me) => {
      const target = String(row.target ?? "").toLowerCase();
      const othersAddress = target.includes("@") && target !== me.email.toLowerCase();
      return { ...row, ip: row.actor_id === me.id ? row.ip : null, target: othersAddress ? null : row.target };
    },
  },
  mail_outbox: { where: (_u, e) => sql`lower("to") = lower(${e})` },
  // The SMS sent to the number on the profile, and what became of marketing e-mail sent to the address.
  sms_outbox: { where: (u) => sql`"to" in (${phonesOf(u)})` },
  sms_owner_phones: { where: (u) => sql`user_id = ${u}`, omit: ["code_hash"] },
  email_events: { where: (_u, e) => sql`email = lower(${e})` },
} satisfies Record<string, Source>;
export type ExportTable = keyof typeof EXPORT_SOURCES;
