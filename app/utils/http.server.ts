/** The JSON error shape (docs/api.md), used by every /api route and guard. */

/** Whether a path (without its query) is the JSON API's: JSON answers, no screens. */
export const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

export const ERROR_CODES = {
  400: "INVALID_INPUT",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "RATE_LIMITED",
  500: "INTERNAL_ERROR",
  502: "UPSTREAM_ERROR",
  503: "UNAVAILABLE",
} as const;

export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public code: string = ERROR_CODES[status as keyof typeof ERROR_CODES] ?? "ERROR",
    public headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const badRequest = (message: string, code?: string) => new HttpError(400, message, code);
export const unauthorized = (message = "Please sign in to continue.") => new HttpError(401, message);
export const forbidden = (message = "You are not allowed to do that.") => new HttpError(403, message);
export const notFound = (message = "Not found.") => new HttpError(404, message);

/** The answer of an /api route to a method it does not take. */
export const methodNotAllowed = () => jsonError(405, "Method not allowed.");

export function errorBody(message: string, code: string, requestId?: string) {
  return { success: false, status: "error", message, error: message, code, ...(requestId ? { requestId } : {}) };
}

export function jsonError(status: number, message: string, code?: string, init: { headers?: HeadersInit; requestId?: string } = {}) {
  const resolved = code ?? ERROR_CODES[status as keyof typeof ERROR_CODES] ?? "ERROR";
  return Response.json(errorBody(message, resolved, init.requestId), {
    status,
    headers: { "Cache-Control": "no-store", ...Object.fromEntries(new Headers(init.headers)) },
  });
}

export function httpErrorResponse(error: HttpError, requestId?: string) {
  return jsonError(error.status, error.message, error.code, { headers: error.headers, requestId });
}
