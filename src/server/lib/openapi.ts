import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import type { Auth } from "../auth.ts";
import { BLOCKED_AUTH_PATHS } from "../modules/accounts/auth-limits.ts";
import type { AppEnv } from "./context.ts";

/**
 * The API described by itself (OpenAPI 3.1), made from the app's own route list: every route of
 * `app.routes` under /api, with the zod schemas its `validate()` middlewares check (lib/validate.ts),
 * and better-auth's endpoints under /api/auth from better-auth's own list. Rendered for people at
 * /api/docs by Swagger UI, served from node_modules (no CDN: the page works offline).
 */

/* The few parts of an OpenAPI 3.1 document this file writes (the validity test checks the rest). */
type Schema = Record<string, unknown>;
type ResponseObject = { description?: string; content?: Record<string, { schema: Schema }>; $ref?: string };
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: unknown[];
  responses?: Record<string, ResponseObject>;
};
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
type Method = (typeof METHODS)[number];
type PathItem = Partial<Record<Method, Operation>>;
export type OpenApiDocument = { openapi: string; info: Schema; paths: Record<string, PathItem>; components?: Schema };

const ERROR_SCHEMA: Schema = {
  type: "object",
  description: "Toute erreur de l'API : un code stable, un message en français pour la personne, les champs en cause.",
  properties: {
    code: {
      type: "string",
      examples: ["VALIDATION", "UNAUTHENTICATED", "FORBIDDEN", "NOT_FOUND", "CONFLICT", "RATE_LIMITED", "INTERNAL"],
    },
    message: { type: "string" },
    fields: { type: "object", additionalProperties: { type: "string" } },
  },
  required: ["code", "message"],
};

const errorResponse = (description: string): ResponseObject => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** `/api/shops/:slug{[a-z]+}` → `/api/shops/{slug}` (what hono-openapi does too). */
export function toOpenApiPath(honoPath: string): string {
  return honoPath
    .split("/")
    .map((segment) => {
      const match = segment.match(/^:([^{?]+)(?:\{.+\})?\??$/);
      return match ? `{${match[1]}}` : segment;
    })
    .join("/");
}

type AuthEndpoint = {
  path?: string;
  options?: { method?: string | string[]; metadata?: { SERVER_ONLY?: boolean; openapi?: { description?: string } } };
};

/** better-auth's endpoints reachable over HTTP (not server-only, not blocked by our proxy). */
function authPaths(auth: Auth): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {};
  for (const [name, endpoint] of Object.entries(auth.api as unknown as Record<string, AuthEndpoint>)) {
    if (!endpoint?.path || endpoint.options?.metadata?.SERVER_ONLY || BLOCKED_AUTH_PATHS.has(endpoint.path)) continue;
    const methods = [endpoint.options?.method ?? "GET"].flat().map((m) => m.toLowerCase());
    const key = `/api/auth${toOpenApiPath(endpoint.path)}`;
    paths[key] ??= {};
    const item = paths[key];
    for (const method of methods) {
      if (!(METHODS as readonly string[]).includes(method)) continue;
      const params = [...key.matchAll(/\{([^}]+)\}/g)].map((m) => ({
        name: m[1]!,
        in: "path",
        required: true,
        schema: { type: "string" },
      }));
      item[method as Method] = {
        operationId: `auth_${name}_${method}`,
        tags: ["auth"],
        summary: endpoint.options?.metadata?.openapi?.description ?? name,
        description:
          "better-auth (https://www.better-auth.com/docs) : le corps et la réponse suivent sa documentation.",
        ...(params.length ? { parameters: params } : {}),
        responses: { "200": { description: "Réponse de better-auth" }, default: errorResponse("Erreur") },
      };
    }
  }
  return paths;
}

/** Builds the document once per app (the routes do not change after start). */
export function createOpenApiDocument(app: Hono<AppEnv>, auth: Auth) {
  let document: Promise<OpenApiDocument> | null = null;
  return () => {
    document ??= build(app, auth);
    return document;
  };
}

async function build(app: Hono<AppEnv>, auth: Auth): Promise<OpenApiDocument> {
  const generated = (await generateSpecs(app, {
    documentation: {
      info: {
        title: "Fidèle API",
        version: "1",
        description:
          "L'API de Fidèle, telle que l'application web l'appelle. Session par cookie (better-auth) ; les requêtes " +
          "POST, PUT, PATCH et DELETE envoient un en-tête Origin. Toute erreur a la forme `Error`.",
      },
      servers: [{ url: "/" }],
      components: {
        schemas: { Error: ERROR_SCHEMA },
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: "fidele.session_token" },
          // The till API (/api/till, issue 29): a shop's API key, made by its owner in the back office.
          tillKey: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "fid_…",
            description:
              "Une clé d'API de la boutique (Réglages › Caisse et API), envoyée en « Authorization: Bearer fid_… ». " +
              "Limitée à 120 requêtes par minute ; révocable à tout moment.",
          },
        },
      },
    },
    includeEmptyPaths: true,
    excludeStaticFile: false,
    // The SPA's own pages and files are not the API.
    exclude: [/^(?!\/api\/)/],
    defaultValidationErrorResponse: errorResponse("Données invalides (les champs en cause dans `fields`)") as never,
  })) as unknown as OpenApiDocument;

  const paths: Record<string, PathItem> = {};
  for (const [key, item] of Object.entries(generated.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      // Tag by the first segment after /api (shops, cards, rewards…); every answer needs a description.
      operation.tags = operation.tags?.length ? operation.tags : [key.split("/")[2] ?? "api"];
      const responses: Record<string, ResponseObject> = {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        responses[status] = response.$ref || response.description ? response : { ...response, description: "OK" };
      }
      responses.default ??= errorResponse("Erreur");
      operation.responses = responses;
    }
    paths[key] = item;
  }
  Object.assign(paths, authPaths(auth));
  return { ...generated, paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))) };
}

/** Swagger UI's files, served from node_modules (swagger-ui-dist, self-contained). */
const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
export const DOCS_ASSETS: Record<string, { file: string; type: string }> = {
  "swagger-ui.css": { file: path.join(SWAGGER_DIR, "swagger-ui.css"), type: "text/css; charset=utf-8" },
  "swagger-ui-bundle.js": {
    file: path.join(SWAGGER_DIR, "swagger-ui-bundle.js"),
    type: "text/javascript; charset=utf-8",
  },
};
const assetCache = new Map<string, Buffer>();
export function readDocsAsset(name: string): Buffer {
  let body = assetCache.get(name);
  if (!body) {
    body = readFileSync(DOCS_ASSETS[name]!.file);
    assetCache.set(name, body);
  }
  return body;
}

/** The init script lives in a file, not inline: the CSP allows scripts from 'self' only. */
export const DOCS_INIT_JS = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/api/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
  });
});
`;

export const DOCS_HTML = `<!doctype html>
<html lang="fr">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Fidèle — documentation de l'API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
  <noscript>Cette page a besoin de JavaScript. Le document brut : <a href="/api/openapi.json">/api/openapi.json</a>.</noscript>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;
