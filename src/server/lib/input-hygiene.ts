import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { AppError } from "../../domain/errors.ts";
import { formatNumber } from "../../domain/format.ts";
import { isJsonType } from "./same-site.ts";

/**
 * Input hygiene at the edge, once (issue 8, row 3): every string of every /api request
 * (JSON body, query string, path), better-auth's endpoints included, is checked before
 * any route sees it. Refused with a French 400 naming the field:
 * - text PostgreSQL cannot store: NUL (U+0000) anywhere, lone UTF-16 surrogates (which
 *   JSON columns refuse);
 * - strings longer than their field allows (the zod schemas keep their own, smaller
 *   limits); numbers that are not finite or beyond ±2^31;
 * - JSON nested deeper than any form of the app.
 */

/** Any string, whatever its field (data URLs of images excepted: their route's body limit bounds them). */
const MAX_STRING = 4096;
/** Any value in the query string or the path. */
const MAX_URL_STRING = 2048;
/** Fields known by name, wherever they are (better-auth's included). */
const FIELD_MAX: Record<string, number> = {
  email: 254,
  password: 128,
  newPassword: 128,
  currentPassword: 128,
  name: 200,
  firstName: 100,
  lastName: 100,
  q: 200,
  search: 200,
  // A shop's import file (issue 28 item 4) as text; only its route accepts a body that large (importBodyLimit).
  csv: 2_500_000,
};
const MAX_NUMBER = 2 ** 31;
const MAX_DEPTH = 32;

const DATA_URL = /^data:image\/[a-z0-9.+-]+;base64,/i;
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Problem = { field: string; message: string };

const label = (field: string) => `« ${field.length > 60 ? `${field.slice(0, 60)}…` : field} »`;

/** A JSON value's field name from its path (built only for a refusal). */
const fieldName = (field: string | readonly string[]) =>
  typeof field === "string" ? field : field.join(".") || "corps";

/**
 * The problem with one string, or null. `key` is the field's own name (its last path part); `at` is the field, or
 * its path in a JSON body, joined only when there is a problem (most strings have none).
 */
function checkString(value: string, at: string | readonly string[], key: string, max: number): Problem | null {
  if (value.includes("\u0000") || LONE_SURROGATE.test(value)) {
    const field = fieldName(at);
    return { field, message: `Le champ ${label(field)} contient un caractère non autorisé.` };
  }
  const limit =
    (Object.hasOwn(FIELD_MAX, key) ? FIELD_MAX[key] : undefined) ??
    (DATA_URL.test(value) ? Number.POSITIVE_INFINITY : max);
  if (value.length > limit) {
    const field = fieldName(at);
    return { field, message: `Le champ ${label(field)} est trop long : ${formatNumber(limit)} caractères au plus.` };
  }
  return null;
}

/** Walks a parsed JSON value without recursion (a deep body cannot exhaust the stack). */
function checkJson(root: unknown): Problem | null {
  const stack: { value: unknown; path: string[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string[] };
    const key = path.at(-1) ?? "";
    if (path.length > MAX_DEPTH) {
      return { field: fieldName(path), message: "La requête contient trop de niveaux imbriqués." };
    }
    if (typeof value === "string") {
      const problem = checkString(value, path, key, MAX_STRING);
      if (problem) return problem;
    } else if (typeof value === "number") {
      if (!Number.isFinite(value) || Math.abs(value) > MAX_NUMBER) {
        const field = fieldName(path);
        return { field, message: `Le champ ${label(field)} contient un nombre hors limites.` };
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => {
        stack.push({ value: item, path: [...path, String(i)] });
      });
    } else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) {
        const keyProblem = checkString(k, "corps", "", 200);
        if (keyProblem) return { field: "corps", message: "La requête contient un nom de champ non autorisé." };
        stack.push({ value: v, path: [...path, k] });
      }
    }
  }
  return null;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The names of the path's parts, from the route this request reaches (`:shopId`), else « chemin ». */
function pathFieldNames(c: Context): string[] {
  const route = matchedRoutes(c).find((r) => r.method !== "ALL" && r.path.includes(":"));
  if (!route) return [];
  return route.path
    .split("/")
    .map((part) => (part.startsWith(":") ? (part.slice(1).split("{")[0] ?? "").replace(/\?$/, "") : ""));
}

/**
 * A path of unreserved characters only, with no query string: nothing in it can be refused (no escape to decode,
 * so no NUL nor surrogate; no part longer than the whole). Most API requests (a scan, a redemption): no URL parse.
 */
const PLAIN_PATH = /^[A-Za-z0-9/._~-]*$/;

function checkUrl(c: Context): Problem | null {
  if (c.req.path.length <= MAX_URL_STRING && !c.req.url.includes("?") && PLAIN_PATH.test(c.req.path)) return null;
  const url = new URL(c.req.url);
  for (const [key, value] of url.searchParams) {
    const keyProblem = checkString(key, key, "", 200);
    if (keyProblem) return keyProblem;
    const problem = checkString(value, key, key, MAX_URL_STRING);
    if (problem) return problem;
  }
  const names = pathFieldNames(c);
  const segments = url.pathname.split("/");
  for (const [i, segment] of segments.entries()) {
    const field = names[i] || "chemin";
    const problem = checkString(safeDecode(segment), field, field, MAX_URL_STRING);
    if (problem) return problem;
  }
  return null;
}

/** better-auth fields that must be text when present (null or a number made a 500 there). */
const AUTH_TEXT_FIELDS = [
  "name",
  "email",
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "otp",
  "code",
  "callbackURL",
  "redirectTo",
];

function checkAuthShape(path: string, body: unknown): Problem | null {
  if (!path.startsWith("/api/auth/") || body === null || typeof body !== "object" || Array.isArray(body)) return null;
  for (const key of AUTH_TEXT_FIELDS) {
    if (!(key in body)) continue;
    const value = (body as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== "string") {
      return { field: key, message: `Le champ ${label(key)} doit être un texte.` };
    }
  }
  return null;
}

function refuse(problem: Problem): never {
  throw new AppError("VALIDATION", {
    message: `refused input in ${problem.field}`,
    userMessage: problem.message,
    fields: { [problem.field]: problem.message },
  });
}

const WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export const inputHygiene: MiddlewareHandler = async (c, next) => {
  const urlProblem = checkUrl(c);
  if (urlProblem) refuse(urlProblem);
  if (WITH_BODY.has(c.req.method) && isJsonType(c.req.header("content-type"))) {
    // Read once, through Hono's body cache (straight from Node's request when nothing built a web Request: see
    // body-size.ts): the route's validator takes the parsed value below, and the auth proxy rebuilds its request
    // from the text (cloneRawRequest). No tee of the request's stream, no second parse (issue 11).
    const text = await c.req.text();
    if (text.trim() !== "") {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new AppError("VALIDATION", {
          message: "malformed JSON body",
          userMessage: "La requête est mal formée (JSON invalide).",
        });
      }
      const problem = checkJson(body) ?? checkAuthShape(c.req.path, body);
      if (problem) refuse(problem);
      // c.req.json() would otherwise parse the text again, through a new Response.
      c.req.bodyCache.json = Promise.resolve(body);
    }
  }
  return next();
};
