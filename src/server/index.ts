import { DataDirLockedError } from "./db/client.ts";
import { parseEnv } from "./env.ts";
import { startServer } from "./server.ts";

/**
 * When `npm start` builds the web app while we start (scripts/start.mjs), it says so with
 * FIDELE_WEB_BUILD=pending and sends one IPC message when the build is done; we listen after it.
 */
function webBuildDone(): Promise<void> | undefined {
  if (process.env.FIDELE_WEB_BUILD !== "pending" || !process.send) return undefined;
  const done = new Promise<void>((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if ((message as { webBuild?: string } | null)?.webBuild !== "done") return;
      process.off("message", onMessage);
      process.off("disconnect", onDisconnect);
      resolve();
    };
    const onDisconnect = () => reject(new Error("npm start stopped before the web app was built"));
    process.on("message", onMessage);
    process.once("disconnect", onDisconnect);
  });
  done.catch(() => {}); // awaited by startServer, maybe after it settles
  return done;
}

/** Starts Fidèle: `npm start` runs this, building the web app beside it if needed. */
try {
  const env = parseEnv();
  const running = await startServer(env, { webBuild: webBuildDone() });
  running.deps.logger.info(
    `Fidèle écoute sur ${env.APP_URL} (port ${running.port}, base ${running.deps.database.kind === "pglite" ? `embarquée dans ${env.DATA_DIR}` : "PostgreSQL"})`,
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await running.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(3);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
