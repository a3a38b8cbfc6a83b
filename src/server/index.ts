// Only the embedded database's early start is imported statically (node: modules only, ADR 0037): its worker
// starts before anything else loads, the settings' schema included; everything else is imported below while
// PGlite opens.
import { DataDirLockedError, DEFAULT_DATA_DIR } from "./db/data-dir.ts";
import { prestartEmbeddedDatabase } from "./db/pglite-prestart.ts";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

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
  // The two settings it needs, as env.ts reads them (same variables, same default); env.ts checks them all next.
  prestartEmbeddedDatabase({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: process.env.DATA_DIR ?? DEFAULT_DATA_DIR,
  });
  const workerStarted = performance.now();
  const { parseEnv } = await import("./env.ts");
  const env = parseEnv();
  const webBuild = webBuildDone(); // listening for the message from now on: it may come at any time
  const [{ createLogger }, { migrateDatabase, openServerDatabase }, { prestartedDatabase }] = await Promise.all([
    import("./lib/logger.ts"),
    import("./db/migrate.ts"),
    import("./db/client.ts"),
  ]);
  const logger = createLogger(env.LOG_LEVEL);
  // performance.now() counts from the process's start: the debug lines below say where a start's time goes.
  logger.debug(
    `start: modules loaded at ${seconds(performance.now())} (database worker started at ${seconds(workerStarted)})`,
  );
  // The database opens and migrates (in its worker thread on PGlite, ADR 0026; started above, before these
  // imports) while the rest of the server's modules load and what needs only its handle is built: the two overlap
  // instead of adding up.
  const early = env.DATABASE_URL ? undefined : prestartedDatabase(env.DATA_DIR);
  const opening = (
    early
      ? early.ready
          .then(() => logger.debug(`start: PGlite open at ${seconds(performance.now())}`))
          .then(() => migrateDatabase(early.database))
          .then(() => early.database)
      : openServerDatabase(env, (message) => logger.warn(message))
  ).then((database) => {
    logger.debug(`start: database opened and migrated at ${seconds(performance.now())}`);
    return database;
  });
  opening.catch(() => {}); // awaited below, after the import
  const { startServer } = await import("./server.ts");
  logger.debug(`start: server modules loaded at ${seconds(performance.now())}`);
  const running = await startServer(env, {
    database: early?.database ?? (await opening),
    ready: opening,
    migrated: true,
    logger,
    webBuild,
  });
  const cpu = process.cpuUsage(); // all threads: on an idle machine with two cores, the wall time is at most this
  logger.debug(`start: listening at ${seconds(performance.now())} (CPU ${seconds((cpu.user + cpu.system) / 1000)})`);
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
  process.on("SIGHUP", stop);
} catch (error) {
  if (error instanceof DataDirLockedError) {
    console.error(error.message);
    process.exit(3);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
