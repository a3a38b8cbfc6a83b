import { SOON } from "./timing.ts";

// Testing Library's findBy… and waitFor give up after 1 s of their own; the suites' limit is timing.ts's. Only the
// component tests (jsdom) load it.
if (typeof document !== "undefined") {
  const { configure } = await import("@testing-library/react");
  configure({ asyncUtilTimeout: SOON });
}
