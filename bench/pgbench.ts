import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { SECONDS, type Stats } from "./load.ts";

/**
 * Issue 11: the database's own limit for a write path. The same SQL function the HTTP route calls, sent by pgbench
 * (prepared statements, one connection per client, no Node in between) on the same database, for as long as the
 * HTTP run (BENCH_SCAN_SECONDS). Latencies come from pgbench's per-transaction log. The binary: PGBENCH, else
 * /usr/lib/postgresql/<version>/bin/pgbench, else `pgbench` on the PATH; without one, the column says « — ».
 */
export function pgbenchBinary(): string | null {
  if (process.env.PGBENCH) return process.env.PGBENCH;
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    for (const version of readdirSync(root).sort().reverse()) {
      const candidate = path.join(root, version, "bin", "pgbench");
      if (existsSync(candidate)) return candidate;
    }
  }
  return null;
}

/** The bench's shoppers as rows pgbench can pick from by number (`\set n random(0, count - 1)`). */
export async function writeBenchUsers(url: string, users: { id: string; deviceId: string }[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      "create table if not exists bench_users (n integer primary key, id text not null, device text not null)",
    );
    await client.query("truncate bench_users");
    await client.query(
      "insert into bench_users (n, id, device) select n - 1, id, device from unnest($1::text[], $2::text[]) with ordinality as u(id, device, n)",
      [users.map((u) => u.id), users.map((u) => u.deviceId)],
    );
  } finally {
    await client.end();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;

/** Runs `script` (pgbench syntax) with `clients` connections; null when there is no pgbench. */
export async function runPgbench(url: string, clients: number, script: string): Promise<Stats | null> {
  const binary = pgbenchBinary() ?? "pgbench";
  const dir = mkdtempSync(path.join(tmpdir(), "fidele-pgbench-"));
  try {
    const file = path.join(dir, "script.sql");
    writeFileSync(file, script);
    const args = [
      "-n",
      "-M",
      "prepared",
      "-c",
      String(clients),
      "-j",
      String(Math.min(clients, 4)),
      "-T",
      String(SECONDS),
    ];
    args.push("-f", file, "-l", "--log-prefix", path.join(dir, "log"), url);
    const out = await new Promise<string | null>((resolve) => {
      execFile(binary, args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) {
          console.error(
            `pgbench: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "not found" : stderr || error.message}`,
          );
          resolve(null);
        } else resolve(stdout);
      });
    });
    if (out === null) return null;
    const latencies: number[] = [];
    for (const name of readdirSync(dir).filter((n) => n.startsWith("log"))) {
      for (const line of readFileSync(path.join(dir, name), "utf8").split("\n")) {
        const us = Number(line.split(" ")[2]);
        if (Number.isFinite(us) && line) latencies.push(us / 1000);
      }
    }
    latencies.sort((a, b) => a - b);
    const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
    const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
    const round = (v: number) => Math.round(v * 10) / 10;
    return {
      requests: latencies.length,
      seconds: SECONDS,
      rps: Math.round(tps),
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      errors: failed,
      warmups: 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A SQL string literal for a pgbench script. */
export const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
