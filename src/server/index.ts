import { DataDirLockedError } from "./db/client.ts";
import { parseEnv } from "./env.ts";
import { startServer } from "./server.ts";

/** Starts Fidèle: `npm start` runs this after building the web app if needed. */
try {
  const env = parseEnv();
  const running = await startServer(env);
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
