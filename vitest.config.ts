import { defineConfig } from "vitest/config";
import { LIMITS } from "./tests/setup/timing.ts";

// Node 25+ puts its own (file-less, so undefined) Web Storage on globalThis, which hides jsdom's localStorage in
// component tests; turning it off gives jsdom's back. The flag exists from Node 22.
const nodeMajor = Number(process.versions.node.split(".")[0]);
const noNodeWebStorage = nodeMajor >= 22 ? ["--no-experimental-webstorage"] : [];

/**
 * Three suites (projects): unit (pure rules and components), api (the real app on
 * a real database: PGlite, or PostgreSQL with TEST_DATABASE_URL) and e2e
 * (Chromium driving the built app). `npm test` runs them all (scripts/test.mjs).
 *
 * Time limits come from tests/setup/timing.ts (ADR 0040). The api and e2e files run without isolation: a worker
 * process imports the app once and runs file after file in it (each file still opens its own app and database), where
 * a fresh process per file spent a third of the api suite importing the same modules again.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["src/domain/**/*.test.ts", "src/client/**/*.test.{ts,tsx}"],
          environment: "node",
          execArgv: noNodeWebStorage,
          setupFiles: ["tests/setup/fail-on-console-error.ts", "tests/setup/unit.ts"],
          testTimeout: LIMITS.unit.test,
          hookTimeout: LIMITS.unit.hook,
        },
      },
      {
        test: {
          name: "api",
          include: ["src/server/**/*.test.ts", "tests/api/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-db.ts"],
          setupFiles: ["tests/setup/fail-on-console-error.ts"],
          testTimeout: LIMITS.api.test,
          hookTimeout: LIMITS.api.hook,
          isolate: false,
          maxWorkers: Number(process.env.TEST_API_WORKERS ?? 3),
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-db.ts", "tests/setup/global-e2e.ts"],
          testTimeout: LIMITS.e2e.test,
          hookTimeout: LIMITS.e2e.hook,
          isolate: false,
          maxWorkers: 2,
        },
      },
    ],
  },
});
