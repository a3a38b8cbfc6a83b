import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT, table } from "./lib.ts";

/**
 * Where a server's CPU went: `tsx bench/profile.ts <file.cpuprofile> [--from <s>] [--to <s>] [--top <n>]` reads a V8
 * CPU profile (as BENCH_SERVER_PROFILE writes them) and prints the self time by package (a node_modules package, a
 * source folder of ours, node's own, V8's garbage collector, idle) and the functions with the most self time.
 * `--from`/`--to` keep the samples between those seconds after the profile's start (the load, not the start-up).
 */
type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

/** The package a script belongs to: `pg`, `hono`, `src/server/modules/cards`, `node:internal`… */
export function packageOf(url: string, functionName: string): string {
  if (!url) {
    if (functionName === "(garbage collector)") return "(gc)";
    if (functionName === "(idle)" || functionName === "(program)") return functionName;
    return "(native)";
  }
  if (url.startsWith("node:")) return "node";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const file = url.replace(/^file:\/\//, "");
  const relative = path.relative(ROOT, file);
  return relative.startsWith("..") ? file : path.dirname(relative);
}

export function summarize(profile: Profile, fromSeconds = 0, toSeconds = Number.POSITIVE_INFINITY) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    t += dt;
    if (t / 1e6 < fromSeconds || t / 1e6 > toSeconds) return;
    self.set(id, (self.get(id) ?? 0) + dt);
  });
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)!;
    const pkg = packageOf(callFrame.url, callFrame.functionName);
    if (pkg === "(idle)") continue;
    total += us;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
    const name = `${callFrame.functionName || "(anonymous)"} ${pkg}:${callFrame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { totalMs: total / 1000, packages: sorted(byPackage), functions: sorted(byFunction) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const file = args.find((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
  if (!file) {
    console.error("usage: tsx bench/profile.ts <file.cpuprofile> [--from <s>] [--to <s>] [--top <n>]");
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const s = summarize(profile, option("--from", 0), option("--to", Number.POSITIVE_INFINITY));
  const top = option("--top", 25);
  const share = (us: number) => `${((us / 1000 / s.totalMs) * 100).toFixed(1)} %`;
  console.log(`busy CPU ${(s.totalMs / 1000).toFixed(1)} s (idle left out)`);
  console.log(
    table(
      ["package", "self", "share"],
      s.packages.slice(0, top).map(([k, us]) => [k, `${Math.round(us / 1000)} ms`, share(us)]),
    ),
  );
  console.log(
    table(
      ["function", "self", "share"],
      s.functions.slice(0, top).map(([k, us]) => [k, `${Math.round(us / 1000)} ms`, share(us)]),
    ),
  );
}
