/**
 * The one error type of Fidèle. `message` is for logs (English, may hold detail);
 * `userMessage` is what a person reads (French). Only `code` and `userMessage`
 * ever go on the wire.
 */
type ErrorCode =
  | "VALIDATION"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "RATE_LIMITED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  /** A service outside Fidèle (a till vendor) did not answer: try again later. */
  | "UNAVAILABLE"
  | "INTERNAL";

const STATUS: Record<ErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

const DEFAULT_USER_MESSAGE: Record<ErrorCode, string> = {
  VALIDATION: "Certaines informations sont invalides.",
  UNAUTHENTICATED: "Connectez-vous pour continuer.",
  FORBIDDEN: "Vous n'avez pas accès à cette page.",
  NOT_FOUND: "Introuvable.",
  CONFLICT: "Cette action n'est plus possible.",
  PAYLOAD_TOO_LARGE: "La requête est trop volumineuse.",
  UNSUPPORTED_MEDIA_TYPE: "Format de requête non pris en charge.",
  RATE_LIMITED: "Trop de tentatives. Réessayez dans quelques instants.",
  INTERNAL: "Une erreur interne est survenue. Réessayez plus tard.",
  UNAVAILABLE: "Le service ne répond pas pour l'instant. Réessayez dans quelques minutes.",
};

type FieldErrors = Record<string, string>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly userMessage: string;
  readonly fields?: FieldErrors;

  constructor(
    code: ErrorCode,
    options: { message?: string; userMessage?: string; fields?: FieldErrors; cause?: unknown } = {},
  ) {
    super(options.message ?? options.userMessage ?? code, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = STATUS[code];
    this.userMessage = options.userMessage ?? DEFAULT_USER_MESSAGE[code];
    if (options.fields) this.fields = options.fields;
  }

  toJSON(): ErrorBody {
    return {
      code: this.code,
      message: this.userMessage,
      ...(this.fields ? { fields: this.fields } : {}),
    };
  }
}

/** The shape of every error answer of the API. */
export type ErrorBody = { code: ErrorCode; message: string; fields?: FieldErrors };

export function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ErrorBody).code === "string" &&
    typeof (value as ErrorBody).message === "string"
  );
}
