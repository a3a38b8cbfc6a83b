import { afterAll, beforeAll, describe } from "vitest";
import { type Stack, startStack } from "../setup/e2e.ts";
import { buildSweepWorld, type SweepWorld, sweepRoutes } from "../setup/route-sweep.ts";

/**
 * Issue 25 row 17 in the dark colour mode (SPEC §4: the phone's choice is followed), as a visitor: every route
 * it may open (the sign-in and sign-up forms, the public shop and contest pages), with content
 * (tests/setup/route-sweep.ts), has no colour-contrast violation (the light sweep checks the rest: only colours change). With
 * no-sideways-scroll-dark-shopper and -owner (a file each, so the suite runs them side by side), every kind of page.
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

describe("dark colour mode: nothing inaccessible", () => {
  sweepRoutes(() => ({ stack, world }), "anonymous", { colorScheme: "dark" });
});
