import { existsSync } from "node:fs";
import { parseEnv } from "../env.ts";
import { createDeps } from "../server.ts";
import { DataDirLockedError } from "./data-dir.ts";
import { DEMO_ACCOUNTS, seedDemo } from "./seed.ts";

/**
 * `npm run db:seed`: creates the demo shop and accounts (after migrating) when the
 * database has no user yet — what the first `npm start` does on its own.
 */
// Settings from .env when there is one (variables already set win), as `npm start` does.
if (existsSync(".env")) process.loadEnvFile(".env");

try {
  const env = parseEnv();
  const deps = await createDeps(env);
  try {
    if (await seedDemo(deps, deps.logger)) {
      console.log("Données de démonstration créées / demo data created:");
      for (const [who, account] of Object.entries(DEMO_ACCOUNTS))
        console.log(`  ${who}: ${account.email} / ${account.password}`);
    } else {
      console.log(
        "La base contient déjà des comptes : rien à faire. / The database already has accounts: nothing done.",
      );
    }
  } finally {
    await deps.database.close();
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(error instanceof DataDirLockedError ? 3 : 1);
}
