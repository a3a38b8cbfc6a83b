import { randomBytes, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createShop, createUser } from "../../src/server/db/factories.ts";
import { parseEnv } from "../../src/server/env.ts";
import type { Deps } from "../../src/server/lib/context.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { INTERRUPTED } from "../../src/server/modules/messages/sending.service.ts";
import { createMessage } from "../../src/server/modules/messages/compose.service.ts";
import { getNewsletter } from "../../src/server/modules/messages/newsletter.service.ts";
import { createDeps } from "../../src/server/server.ts";
import { serverLogs, type ServerProcess, spawnServer, waitHealthy } from "../setup/api.ts";
import { LONG_TEST, SLOW_WORK, until } from "../setup/timing.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { startSmtp } from "../setup/smtp.ts";

/**
 * A newsletter whose server process is killed (SIGKILL) mid-campaign: a second process resumes it and
 * nobody receives it twice (ADR 0021/0023: a claim past its lease is failed "interrupted", never resent).
 * Two real server processes on a PostgreSQL database of their own, a real SMTP server.
 */
const url = inject("testDatabaseUrl");
const CUSTOMERS = 300;
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
let deps: Deps | undefined;
const servers: ServerProcess[] = [];
/** Every wait of this file reports what the servers printed when it fails. */
const logs = { context: () => serverLogs(servers) };


describe.skipIf(!url)("a newsletter across a killed process (run on the PostgreSQL pass)", () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    smtp = await startSmtp();
    scratch = await createScratchDatabase(url, "nl2p");
    env = {
      DATABASE_URL: scratch.url,
      SECRET: randomBytes(32).toString("hex"),
      APP_URL: "http://fidele.test",
      SMTP_URL: smtp.url,
      EMAIL_RATE_PER_SECOND: "40",
      MESSAGES_LEASE_SECONDS: "3",
      JOBS_SUPERVISE_SECONDS: "1",
    };
    deps = await createDeps(parseEnv({ ...env, SEED_DEMO: "0", LOG_LEVEL: "warn" }), { logger: createLogger("error") });
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop().catch(() => 0)));
    await deps?.database.close();
    await scratch?.drop();
    await smtp?.close();
  });

  it("a process killed mid-campaign: another resumes it, nobody receives it twice, nobody who refused gets it", async () => {
    const d = deps!;
    const owner = await createUser(d, { withoutPassword: true });
    const shop = await createShop(d, { ownerId: owner.id });
    const tag = randomUUID().slice(0, 8);
    await d.db.execute(sql`
      insert into "user" (id, name, email, email_verified)
      select gen_random_uuid()::text, 'Client ' || i,
        case when i <= ${CUSTOMERS} then 'oui-' else 'non-' end || ${tag} || '-' || i || '@test.fidele.local', true
      from generate_series(1, ${CUSTOMERS + 20}) i`);
    await d.db.execute(
      sql`insert into cards (shop_id, user_id) select ${shop.id}, id from "user" where email like ${`%-${tag}-%`}`,
    );
    await d.db.execute(sql`
      insert into consents (user_id, channel, granted, wording)
      select id, 'email', true, 'E-mails' from "user" where email like ${`oui-${tag}-%`}`);

    // Created here (this process runs no jobs): the audience is frozen, the servers' sweep at start picks it up.
    const subject = `Tournée ${tag}`;
    const access = { shopId: shop.id, userId: owner.id, role: "owner", level: "owner" } as const;
    const id = await createMessage(
      d,
      { kind: "shop", access },
      {
        kind: "newsletter",
        subject,
        preheader: "",
        blocks: [{ type: "text", text: "Bonjour {{prenom}}" }],
        segment: { kind: "all" },
      },
    );
    const created = await getNewsletter(d.db, access, id);
    expect(created.counts.total).toBe(CUSTOMERS);
    const received = () => smtp!.mails.filter((m) => m.subject === subject);

    const first = await spawnServer(env);
    servers.push(first);
    await waitHealthy(first);
    await until("a third of the campaign", () => received().length >= CUSTOMERS / 3, { ...logs, timeout: SLOW_WORK });
    first.child.kill("SIGKILL");
    await first.exited;
    const atKill = received().length;

    const second = await spawnServer(env);
    servers.push(second);
    await waitHealthy(second);
    const status = async () =>
      (await d.db.execute<{ status: string }>(sql`select status from messages where id = ${created.id}`)).rows[0]?.status;
    await until("the campaign to end", async () => (await status()) === "sent", { ...logs, timeout: SLOW_WORK });

    const rows = (
      await d.db.execute<{ email: string; status: string; detail: string | null }>(sql`
        select u.email, d.status, d.detail from message_deliveries d join "user" u on u.id = d.user_id
        where d.message_id = ${created.id}`)
    ).rows;
    const to = received().flatMap((m) => m.to);
    const counts = new Map<string, number>();
    for (const address of to) counts.set(address, (counts.get(address) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    const interrupted = rows.filter((r) => r.status === "failed" && r.detail === INTERRUPTED);
    console.info(
      `newsletter killed mid-campaign: ${atKill} e-mails before the kill, ${to.length} in all, ${interrupted.length} interrupted (not resent), ${twice.length} twice`,
    );
    expect(twice).toEqual([]);
    expect(to.every((a) => a.startsWith("oui-"))).toBe(true);
    expect(rows).toHaveLength(CUSTOMERS);
    // Every row ended: delivered (and received), or interrupted by the kill (sent or not: never again).
    expect(rows.filter((r) => r.status === "delivered").length + interrupted.length).toBe(CUSTOMERS);
    for (const r of rows.filter((x) => x.status === "delivered")) expect(counts.get(r.email)).toBe(1);
    // At most what the killed process had in flight (8 per lane it was running).
    expect(interrupted.length).toBeLessThanOrEqual(16);
    expect(to.length).toBeGreaterThan(atKill);
  }, LONG_TEST);
});
