import { sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/**
 * A value the instance generates once and every process shares (ADR 0038): read from `instance_keys`; when
 * absent, the generated one is offered with `on conflict do nothing` and the row read again, so processes
 * starting together all end up with the first one's value.
 */
export async function sharedInstanceKey<T>(db: Db, name: string, generate: () => T): Promise<T> {
  const read = async () =>
    (await db.execute<{ value: T }>(sql`select value from instance_keys where name = ${name}`)).rows[0]?.value;
  const known = await read();
  if (known !== undefined) return known;
  await db.execute(sql`
    insert into instance_keys (name, value) values (${name}, ${JSON.stringify(generate())}::jsonb)
    on conflict (name) do nothing`);
  const value = await read();
  if (value === undefined) throw new Error(`instance key ${name}: not written`);
  return value;
}
