import type { $ZodConfig } from "zod/v4/core";

/**
 * Zod 4 compiles object parsers with `new Function` unless told not to, after probing whether eval is allowed
 * (zod/v4/core/util.js `allowsEval`). The server's Content-Security-Policy has no 'unsafe-eval', so in the browser
 * the probe is refused and reported as a CSP violation (Lighthouse best practices: "Issues were logged"), even though
 * zod catches it. `jitless` skips both the probe and the compiled path. Object schemas read it when they are built,
 * so main.tsx imports this module first, before any chunk builds a schema. The server keeps the compiled parsers.
 *
 * Zod keeps its configuration on `globalThis.__zod_globalConfig`, adopting an object that is already there
 * (zod/v4/core/core.js); setting it here costs nothing, whereas importing zod's `config()` into the entry chunk
 * brings 3.7 kB gzip of zod's utilities with it.
 */
const scope = globalThis as typeof globalThis & { __zod_globalConfig?: $ZodConfig };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
