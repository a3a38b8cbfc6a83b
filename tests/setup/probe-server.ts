import { parseEnv } from "../../src/server/env.ts";
import { startServer } from "../../src/server/server.ts";
import { testProbe } from "./test-probe.ts";

/**
 * A server process as `npm start` runs one (startServer on the environment), with the tests' probe queue
 * registered beside the app's jobs: what jobs-processes.test.ts spawns (spawnServer's `entry`).
 */
const running = await startServer(parseEnv(), { extraJobs: [testProbe] });
const stop = async () => {
  await running.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
