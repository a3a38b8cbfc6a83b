import { afterEach, beforeEach, vi } from "vitest";

/** A console.error fails the test (Epic Stack setup-test-env.ts): errors are never silent. */
let spy: ReturnType<typeof vi.spyOn> | undefined;
beforeEach(() => {
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error was called: ${args.map(String).join(" ")}`);
  });
});
afterEach(() => {
  spy?.mockRestore();
});
