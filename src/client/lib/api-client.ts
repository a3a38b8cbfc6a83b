import { hc } from "hono/client";
import { AppError, type ErrorBody, isErrorBody } from "../../domain/errors.ts";
import type { AppType } from "../../server/app.ts";

/** The typed API (types flow from the server: CONVENTIONS rule 5). */
export const api = hc<AppType>("/api", { init: { credentials: "same-origin" } });

/** An error from the API, with its French message and the fields it names. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  constructor(status: number, body: ErrorBody) {
    super(body.message);
    this.name = "ApiError";
    this.status = status;
    this.code = body.code;
    this.fields = body.fields ?? {};
  }
}

/** What to tell people about a failed call: the API's French message, else the page's own words. */
export const errorText = (error: unknown, fallback = "Une erreur inattendue est survenue. Réessayez.") =>
  error instanceof ApiError ? error.message : fallback;

/** The fields a refused call names (a form shows each message beside its field). */
export const errorFields = (error: unknown): Record<string, string> => (error instanceof ApiError ? error.fields : {});

const OFFLINE_MESSAGE = "Connexion impossible. Vérifiez votre réseau et réessayez.";

/** Unwraps a response once: JSON on success, ApiError (French message) otherwise. */
type JsonResponse = { ok: boolean; status: number; json: () => Promise<unknown> };

export async function unwrap<R extends JsonResponse>(request: Promise<R>): Promise<Awaited<ReturnType<R["json"]>>> {
  type T = Awaited<ReturnType<R["json"]>>;
  let response: R;
  try {
    response = await request;
  } catch {
    throw new ApiError(0, { code: "INTERNAL", message: OFFLINE_MESSAGE });
  }
  if (response.ok) return (response.status === 204 ? undefined : await response.json()) as T;
  const body: unknown = await response.json().catch(() => null);
  throw new ApiError(
    response.status,
    isErrorBody(body) ? body : new AppError(response.status === 429 ? "RATE_LIMITED" : "INTERNAL").toJSON(),
  );
}

/** POST/GET to an endpoint outside AppType (better-auth), with the same error shape. */
export function authFetch<T>(
  path: string,
  body?: unknown,
  method: "GET" | "POST" = body === undefined ? "GET" : "POST",
): Promise<T> {
  return unwrap(
    fetch(`/api/auth${path}`, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }) as Promise<{ ok: boolean; status: number; json: () => Promise<T> }>,
  );
}
