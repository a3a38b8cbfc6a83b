import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * ChannelDriver.ratePerSecond across processes: reserves `n` claims of the channel in
 * `channel_pacing` (next_at moves on by n / rate seconds) and waits for the reserved
 * window to open. Bursts are at most a second's worth.
 */
export async function pace(db: Db, channel: string, wanted: number, rate: number): Promise<number> {
  const n = Math.max(1, Math.min(wanted, Math.floor(rate)));
  const seconds = n / rate;
  const [row] = (
    await db.execute<{ wait_ms: number }>(sql`
      insert into channel_pacing as p (channel, next_at) values (${channel}, now() + make_interval(secs => ${seconds}))
      on conflict (channel) do update set next_at = greatest(p.next_at, now()) + make_interval(secs => ${seconds})
      returning greatest(0, extract(epoch from (p.next_at - now())) * 1000 - ${seconds * 1000})::float8 as wait_ms`)
  ).rows;
  const wait = Number(row?.wait_ms ?? 0);
  if (wait > 0) await sleep(wait);
  return n;
}

/** Gives back reserved claims that found no row. */
export async function unpace(db: Db, channel: string, unused: number, rate: number) {
  await db.execute(sql`
    update channel_pacing set next_at = next_at - make_interval(secs => ${unused / rate}) where channel = ${channel}`);
}
