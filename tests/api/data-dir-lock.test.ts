import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { migratedDataDir, type ServerProcess, spawnServer, waitHealthy } from "../setup/api.ts";
import { LONG_TEST } from "../setup/timing.ts";

/**
 * PGlite's data directory belongs to one process (STACK.md): a second server on
 * the same DATA_DIR stops at once with a French-and-English message, touching
 * nothing, and the first one keeps serving. The servers are the built ones `npm start` runs (dist/server, ADR 0037):
 * this also proves the bundle opens PGlite in its built worker, finds the migrations and the database functions.
 */
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

async function start(dataDir: string) {
  const server = await spawnServer({ DATA_DIR: dataDir });
  servers.push(server);
  return server;
}

const signUp = (server: ServerProcess, email: string) =>
  fetch(`${server.url}/api/accounts/sign-up`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: `http://localhost:${server.port}` },
    body: JSON.stringify({ email, password: "un-mot-de-passe" }),
  });

describe("one process per DATA_DIR", () => {
  // The servers here use the embedded database whatever the run: once (the PGlite run) is enough.
  it.skipIf(Boolean(inject("testDatabaseUrl")))(
    "a second server on the same DATA_DIR refuses to start; the first keeps serving; the data is intact (run on the PGlite pass only)",
    async () => {
      const dataDir = await migratedDataDir();
      const first = await start(dataDir);
      await waitHealthy(first);
      expect(await (await fetch(`${first.url}/api/health`)).json()).toEqual({ status: "ok", database: "pglite" });
      expect((await signUp(first, "avant@test.fidele.local")).status).toBe(200);

      const second = await start(dataDir);
      const code = await second.exited;
      expect(code).not.toBe(0);
      const stderr = second.stderr();
      expect(stderr).toContain(
        `Le dossier de données ${dataDir} est déjà utilisé par un autre processus Fidèle (PID ${first.child.pid})`,
      );
      expect(stderr).toContain(
        `The data directory ${dataDir} is already used by another Fidèle process (PID ${first.child.pid})`,
      );

      // The first one is untouched: still healthy, still holding the lock, still writing.
      expect((await fetch(`${first.url}/api/health`)).status).toBe(200);
      expect((await readFile(path.join(dataDir, "fidele.lock"), "utf8")).trim()).toBe(String(first.child.pid));
      expect((await signUp(first, "apres@test.fidele.local")).status).toBe(200);

      // Once it stops, the directory opens again with everything it wrote.
      expect(await first.stop()).toBe(0);
      const third = await start(dataDir);
      await waitHealthy(third);
      for (const email of ["avant@test.fidele.local", "apres@test.fidele.local"]) {
        // The account is there (with its password), waiting for its e-mail confirmation.
        const res = await fetch(`${third.url}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: `http://localhost:${third.port}` },
          body: JSON.stringify({ email, password: "un-mot-de-passe" }),
        });
        expect(res.status).toBe(403);
        expect((await res.json()).code).toBe("EMAIL_NOT_VERIFIED");
      }
      const lockPid = (await readFile(path.join(dataDir, "fidele.lock"), "utf8")).trim();
      expect(lockPid).toBe(String(third.child.pid));
    },
    LONG_TEST,
  );
});
