import { existsSync } from "node:fs";
import { parseEnv } from "../env.ts";
import { DataDirLockedError } from "./data-dir.ts";
import { openServerDatabase } from "./migrate.ts";

/**
 * `npm run db:migrate`: applies the committed migrations to DATABASE_URL (as DATABASE_OWNER_URL's role when
 * given, then grants DATABASE_URL's role its rights: ADR 0034), or to the embedded database in DATA_DIR. The
 * server does the same at every start; this is for deploying migrations ahead of the code, or checking them.
 */
// Settings from .env when there is one (variables already set win), as `npm start` does.
if (existsSync(".env")) process.loadEnvFile(".env");

try {
  const env = parseEnv();
  const database = await openServerDatabase(env, (message) => console.warn(message));
  try {
    console.log(
      `Migrations appliquées / migrations applied (${database.kind === "pglite" ? env.DATA_DIR : "PostgreSQL"}).`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof DataDirLockedError ? 3 : 1);
}
