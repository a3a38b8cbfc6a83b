import { defineConfig } from "vitest/config";

// Node 25+ puts its own (file-less, so undefined) Web Storage on globalThis, which hides jsdom's localStorage in
// component tests; turning it off gives jsdom's back. The flag exists from Node 22.
const nodeMajor = Number(process.versions.node.split(".")[0]);
const noNodeWebStorage = nodeMajor >= 22 ? ["--no-experimental-webstorage"] : [];

/**
 * Three suites (projects): unit (pure rules and components), api (the real app on
 * a real database: PGlite, or PostgreSQL with TEST_DATABASE_URL) and e2e
 * (Chromium driving the built app). `npm test` runs them all (scripts/test.mjs).
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
          setupFiles: ["tests/setup/fail-on-console-error.ts"],
        },
      },
      {
        test: {
          name: "api",
          include: ["src/server/**/*.test.ts", "tests/api/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-db.ts"],
          setupFiles: ["tests/setup/fail-on-console-error.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/setup/global-db.ts", "tests/setup/global-e2e.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 2,
        },
      },
    ],
  },
});
