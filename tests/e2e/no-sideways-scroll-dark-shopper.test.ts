import { afterAll, beforeAll, describe } from "vitest";
import { type Stack, startStack } from "../setup/e2e.ts";
import { menuFor } from "../../src/client/components/back-office/menu.ts";
import { buildSweepWorld, type SweepWorld, sweepRoutes } from "../setup/route-sweep.ts";

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

describe("dark colour mode: nothing inaccessible", () => {
  sweepRoutes(() => ({ stack, world }), "shopper", { colorScheme: "dark" });
  // The pages of the platform admin's menu (the console and its views, the journal, the announcements…).
  const platformPages = menuFor(["platform"]).flatMap((group) => group.links.map((link) => link.to));
  sweepRoutes(() => ({ stack, world }), "admin", {
    colorScheme: "dark",
    only: (pattern) => platformPages.includes(pattern),
  });
});
