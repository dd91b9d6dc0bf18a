import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getIdentity, type Identity, type SessionUser } from "./auth.server";
import { env } from "./env.server";
import { ERROR_CODES, forbidden, HttpError, httpErrorResponse, jsonError, unauthorized } from "./http.server";
import { logger } from "./logger.server";
import { clientIp } from "./rate-limit.server";

type Auth = "none" | "optional" | "any" | "user" | "team";
type UserFor<A extends Auth> = A extends "none" ? null : A extends "optional" ? SessionUser | null : SessionUser;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

interface Config<A extends Auth, P, Q, B> {
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
}

export interface ApiContext<A extends Auth, P, Q, B> {
  request: Request;
  user: UserFor<A>;
  identity: Identity | null;
  params: Infer<P>;
  query: Infer<Q>;
  body: Infer<B>;
  requestId: string;
  /** The client address as Express saw it (trust proxy honoured). */
  clientIp: string;
}

export const INTERNAL_ERROR_MESSAGE = "Something went wrong on our side. Please try again.";

/**
 * Declares an /api route: authenticates, parses params, query and body with zod, and maps every
 * failure to the JSON error shape. A handler returns a Response or a value to send as JSON.
 */
export function apiRoute<A extends Auth, P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  config: Config<A, P, Q, B>,
  handler: (ctx: ApiContext<A, P, Q, B>) => Promise<unknown>,
) {
  return async ({ request, params, context }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> => {
    const requestId = (context as { requestId?: string } | undefined)?.requestId ?? crypto.randomUUID();
    try {
      const identity = config.auth === "none" ? null : await getIdentity(request);
      if (config.auth !== "none" && config.auth !== "optional") {
        if (!identity) throw unauthorized();
        if ((config.auth === "user" || config.auth === "team") && identity.user.role !== config.auth) throw forbidden();
      }
      if (identity?.via === "cookie" && request.method !== "GET" && request.method !== "HEAD") checkOrigin(request);
      const result = await handler({
        request,
        identity,
        user: (identity?.user ?? null) as UserFor<A>,
        params: parse(config.params, params) as Infer<P>,
        query: parse(config.query, Object.fromEntries(new URL(request.url).searchParams)) as Infer<Q>,
        body: (config.body ? parse(config.body, await readBody(request)) : undefined) as Infer<B>,
        requestId,
        clientIp: clientIp(request, context),
      });
      return result instanceof Response ? result : Response.json(result, { headers: { "Cache-Control": "no-store" } });
    } catch (error) {
      return toErrorResponse(error, requestId, request);
    }
  };
}

export function toErrorResponse(error: unknown, requestId: string, request?: Request): Response {
  if (error instanceof HttpError) return httpErrorResponse(error);
  if (error instanceof Response) return error;
  logger.error({ err: error, requestId, url: request?.url }, "unhandled API error");
  return jsonError(500, INTERNAL_ERROR_MESSAGE, ERROR_CODES[500], { requestId });
}

function parse(schema: z.ZodType | undefined, input: unknown) {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new HttpError(400, issue?.message ?? "Invalid input.", "INVALID_INPUT");
  }
  return result.data;
}

async function readBody(request: Request): Promise<unknown> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/x-www-form-urlencoded") || type.includes("multipart/form-data")) {
    return Object.fromEntries(await request.formData());
  }
  const text = await request.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.", "MALFORMED_JSON");
  }
}

/** Cookie-authenticated state changes on resource routes must come from our own pages. */
export function checkOrigin(request: Request) {
  const origin = request.headers.get("Origin");
  const allowed = new Set([new URL(env.appUrl).origin, new URL(request.url).origin]);
  if (!origin || !allowed.has(origin)) throw new HttpError(403, "Cross-site request refused.", "BAD_ORIGIN");
}

/** Zod helpers shared by the API schemas. */
export const uuidParam = (message = "Not found.") => z.string().uuid({ message });
