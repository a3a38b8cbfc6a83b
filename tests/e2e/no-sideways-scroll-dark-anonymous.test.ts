import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "../setup/e2e.ts";
import { buildSweepWorld, type SweepWorld, sweepRole } from "../setup/route-sweep.ts";
import { LONG_TEST } from "../setup/timing.ts";

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

describe("dark colour mode: nothing inaccessible", { timeout: LONG_TEST }, () => {
  it("every route of SPEC §2 a visitor may open, dark", async () => {
    const found = await sweepRole(stack, "anonymous", world, { colorScheme: "dark" });
    expect(found.wide).toEqual([]);
    expect(found.inaccessible).toEqual([]);
  });
});
