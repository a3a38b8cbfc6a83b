import { afterAll, beforeAll, describe } from "vitest";
import { type Stack, startStack } from "../setup/e2e.ts";
import { buildSweepWorld, type SweepWorld, sweepRoutes } from "../setup/route-sweep.ts";

/**
 * Issue 12 and issue 25 row 17, as staff: every route of SPEC §2 this role may open, in a world with content
 * (tests/setup/route-sweep.ts): no sideways scroll at 320 or 390 px, axe finds no serious or critical violation,
 * nothing outside a landmark, every control named as labelled. One file per role so that the suite runs them side
 * by side.
 */
let stack: Stack;
let world: SweepWorld;
beforeAll(async () => {
  stack = await startStack();
  world = await buildSweepWorld(stack);
});
afterAll(async () => {
  await stack?.close();
});

describe("no sideways scroll, nothing inaccessible", () => {
  sweepRoutes(() => ({ stack, world }), "staff");
});
