import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "../setup/e2e.ts";
import { menuFor } from "../../src/client/components/back-office/menu.ts";
import { buildSweepWorld, type SweepWorld, sweepRole } from "../setup/route-sweep.ts";
import { LONG_TEST } from "../setup/timing.ts";

/**
 * Issue 25 row 17 in the dark colour mode (SPEC §4: the phone's choice is followed), as shopper (and the platform
 * admin on the pages only they open): every route they may open, with content (tests/setup/route-sweep.ts), has no colour-contrast violation (a red « Supprimer »
 * on /admin/points-double was too pale on the dark card; the light sweep checks the rest). With no-sideways-scroll-dark-owner
 * (a file each, so the suite runs them side by side), every kind of page with content, dark.
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
  it("every route of SPEC §2 shopper may open, dark; the platform admin's own pages, dark", async () => {
    const found = await sweepRole(stack, "shopper", world, { colorScheme: "dark" });
    // The pages of the platform admin's menu (the console and its views, the journal, the announcements…).
    const platformPages = menuFor(["platform"]).flatMap((group) => group.links.map((link) => link.to));
    const platform = await sweepRole(stack, "admin", world, {
      colorScheme: "dark",
      only: (path) => platformPages.includes(path),
    });
    found.wide.push(...platform.wide);
    found.inaccessible.push(...platform.inaccessible);
    expect(found.wide).toEqual([]);
    expect(found.inaccessible).toEqual([]);
  });
});
