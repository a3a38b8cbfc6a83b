import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputsHash } from "../../scripts/build.mjs";
import { ROOT } from "../setup/api.ts";

/** The runtime `npm install` brings and the builds `npm start` caches (ADR 0037). */
describe("runtime and builds", () => {
  // Node's own version, as an older Node would report it, before the script runs.
  const olderNode = `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"20.20.2"}});Object.defineProperty(process,"version",{value:"v20.20.2"})`;

  it.each(["start", "dev", "test", "build"])(
    "scripts/%s.mjs on a Node too old prints one line saying what to do and exits 1, before anything runs",
    (script) => {
      const run = spawnSync(process.execPath, ["--import", olderNode, path.join(ROOT, `scripts/${script}.mjs`)], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, PORT: "0", DATA_DIR: path.join(tmpdir(), "fidele-never-used") },
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("Fidèle demande Node 22.12 ou plus récent (ici v20.20.2)");
      expect(lines[0]).toContain("npm install, puis npm start");
    },
  );

  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("a build's inputs are hashed by content: touching a file changes nothing, editing one byte does", () => {
    const root = mkdtempSync(path.join(tmpdir(), "fidele-inputs-"));
    dirs.push(root);
    mkdirSync(path.join(root, "src/a"), { recursive: true });
    writeFileSync(path.join(root, "src/a/one.ts"), "export const one = 1;\n");
    writeFileSync(path.join(root, "src/a/one.test.ts"), "// tests are not inputs\n");
    writeFileSync(path.join(root, "index.html"), "<!doctype html>\n");
    const inputs = ["src", "index.html", "absent.txt"];
    const first = inputsHash(inputs, root);

    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, "src/a/one.ts"), later, later);
    writeFileSync(path.join(root, "src/a/one.test.ts"), "// a test changed\n");
    expect(inputsHash(inputs, root)).toBe(first);

    writeFileSync(path.join(root, "src/a/one.ts"), "export const one = 2;\n");
    const edited = inputsHash(inputs, root);
    expect(edited).not.toBe(first);
    // A file moved with the same bytes is another input too.
    rmSync(path.join(root, "src/a/one.ts"));
    writeFileSync(path.join(root, "src/a/two.ts"), "export const one = 2;\n");
    expect(inputsHash(inputs, root)).not.toBe(edited);
  });
});
