import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { z } from "zod";

import { API_KEY_MESSAGES, type Scope } from "~/domain/api-keys";
import { ROLE_REFUSED } from "~/domain/clients";
import { can, type Action } from "~/domain/permissions";
import { isDatabaseUnavailable } from "~/utils/db.server";
import { ERROR_CODES, forbidden, HttpError, httpErrorResponse, jsonError, methodNotAllowed, unauthorized } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { clientIp, consume, limits } from "~/utils/rate-limit.server";
import { checkDeclaredAnswer } from "~/web/api-answer-check.server";
import { checkMediaType, decodablePath, parse, readBody } from "~/web/api-input.server";
import { getIdentity, TWO_FACTOR_REQUIRED_MESSAGE, type Identity, type SessionUser } from "~/web/auth.server";
import { jsonAnswer, jsonText, type JsonAnswer } from "~/web/json-answer.server";

/** Who may call: nobody checked, anyone (user or null), any signed-in user, customers, staff. */
export type Auth = "none" | "optional" | "any" | "user" | "team";
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type UserFor<A extends Auth> = A extends "none" ? null : A extends "optional" ? SessionUser | null : SessionUser;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
/**
 * Any JSON body, spelled so that while a route's `response` is still being inferred a handler's
 * literals (`status: "success"`, `true`, an enum's word) keep their literal types: every value fits,
 * and the literal members make the compiler keep literals it meets (decision 314).
 */
type AnswerBody = boolean | "" | 0 | { [key: string]: AnswerBody } | AnswerBody[] | NonNullable<unknown> | null | undefined;
/** A route's `response`: any schema of a JSON body. */
export type AnswerSchema = z.ZodType<unknown, AnswerBody>;
/**
 * What a handler may return (decision 314): a Response (a file, another status: checked at run time
 * only), or a value whose JSON parses as the route's `response` (the schema's input type).
 */
export type Answer<R extends AnswerSchema> = Response | R["_zod"]["input"];

export interface ApiConfig<A extends Auth, P, Q, B, R extends AnswerSchema = AnswerSchema> {
  /** The one method this handler takes; others answer 405. A loader is GET (and HEAD). */
  method?: Method;
  auth: A;
  /** A client's member must hold a role that covers this (decision 283); staff pass where `auth` lets them in. */
  allow?: Action;
  params?: P;
  query?: Q;
  body?: B;
  /** The success body, for the OpenAPI document (GET /api/openapi.json). */
  response?: R;
  /** The success's media type when it is not JSON (a file): the document lists `response` under it. */
  produces?: string;
  /** Status of a success answered as a plain value (default 200). */
  status?: number;
  /** Spent after authentication and before parsing, so malformed floods count too. */
  rateLimit?: { limiter: RateLimiterAbstract; key: (ctx: { clientIp: string; user: SessionUser | null }) => string | string[] };
  /** One line for the API reference. */
  summary?: string;
  /** A body the handler reads itself (multipart uploads, signed webhooks): only this media type is taken (else 415). */
  rawBody?: { contentType: string; schema?: z.ZodType };
  /** Statuses the handler itself answers besides those the config implies (see `declaredStatuses`): 404, 409… */
  errors?: number[];
  /** Open to a staff account held to its second-factor set-up (TEAM_2FA=required): the set-up calls and signing out. */
  duringSetup?: boolean;
  /**
   * The scope an API key needs for this call (decision 285); null: no key may make it (keys,
   * password, account security). Unset: GET needs `read`, other methods take no key.
   */
  scope?: Scope | null;
}

/** What a route declares, kept on the handler so the OpenAPI registry can read it. */
export type ApiSpec = Omit<ApiConfig<Auth, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>, "rateLimit"> & {
  rateLimited: boolean;
};
type RouteArgs = LoaderFunctionArgs | ActionFunctionArgs;
/**
 * An /api route as Remix calls it (a Response), with `answerJson`: the same route answering a JSON
 * success as text (a JsonAnswer), for the API's fast path, which writes the text itself.
 */
export type ApiHandler = ((args: RouteArgs) => Promise<Response>) & { api: ApiSpec[]; answerJson: (args: RouteArgs) => Promise<Response | JsonAnswer> };

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
export const DATABASE_UNAVAILABLE_MESSAGE = "The service is briefly unavailable. Please try again in a moment.";

/**
 * Declares an /api route: checks the method, authenticates, spends the rate limit, parses params,
 * query and body with zod, and maps every failure to the JSON error shape. A handler returns a
 * Response or a value to send as JSON, typed by the declared `response` (decision 314). The config
 * is the route's entry in the OpenAPI document.
 */
export function apiRoute<
  A extends Auth,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends AnswerSchema = AnswerSchema,
>(config: ApiConfig<A, P, Q, B, R>, handler: (ctx: ApiContext<A, P, Q, B>) => Promise<Answer<R>>): ApiHandler {
  const status = config.status ?? 200;
  /** The route's Response, or the value of its success (checked against `response`) as JSON text. */
  const run = async ({ request, params, context }: RouteArgs): Promise<Response | { json: string }> => {
    const requestId = (context as { requestId?: string } | undefined)?.requestId ?? crypto.randomUUID();
    if (!decodablePath(request.url)) return jsonError(400, "The URL's path is not valid percent-encoding.", "MALFORMED_PATH", { requestId });
    if (config.method && !methodMatches(config.method, request.method)) return methodNotAllowed();
    try {
      let identity = config.auth === "none" ? null : await getIdentity(request);
      if (identity?.setupOnly && !config.duringSetup) {
        // Until it has a second factor, the account is a stranger to public calls and refused by the rest.
        if (config.auth !== "optional") throw new HttpError(403, TWO_FACTOR_REQUIRED_MESSAGE, "SECOND_FACTOR_REQUIRED");
        identity = null;
      }
      if (identity?.apiKey) {
        // Every call made with a key is counted against it (600 a minute), then held to its scopes.
        await consume(limits.apiKey, identity.apiKey.id);
        const needed = keyScope(config, request.method === "HEAD" ? "GET" : (request.method as Method));
        if (!needed) throw forbidden(API_KEY_MESSAGES.keyRefused);
        if (!identity.apiKey.scopes.includes(needed)) throw forbidden(API_KEY_MESSAGES.scopeMissing(needed));
      }
      if (config.auth !== "none" && config.auth !== "optional") {
        if (!identity) throw unauthorized();
        if (config.auth === "team" && !can(identity.user, "area:team")) throw forbidden();
        if (config.auth === "user" && !can(identity.user, "area:customer")) throw forbidden();
        if (config.allow && identity.user.role === "user" && !can(identity.user, config.allow)) throw forbidden(ROLE_REFUSED);
      }
      const ip = clientIp(request, context);
      if (config.rateLimit) {
        const keys = config.rateLimit.key({ clientIp: ip, user: identity?.user ?? null });
        await consume(config.rateLimit.limiter, ...(Array.isArray(keys) ? keys : [keys]));
      }
      const parsedParams = parse(config.params, params) as Infer<P>;
      const parsedQuery = parse(config.query, Object.fromEntries(new URL(request.url).searchParams)) as Infer<Q>;
      if (config.rawBody) checkMediaType(request, config.rawBody.contentType);
      const result = await handler({
        request,
        identity,
        user: (identity?.user ?? null) as UserFor<A>,
        params: parsedParams,
        query: parsedQuery,
        body: (config.body ? parse(config.body, await readBody(request)) : undefined) as Infer<B>,
        requestId,
        clientIp: ip,
      });
      if (result instanceof Response) {
        await checkDeclaredAnswer(config.response, result, request);
        return result;
      }
      const json = jsonText(result);
      await checkDeclaredAnswer(config.response, { value: result, json }, request);
      return { json };
    } catch (error) {
      return toErrorResponse(error, requestId, request);
    }
  };
  const route = async (args: RouteArgs): Promise<Response> => {
    const outcome = await run(args);
    if (outcome instanceof Response) return outcome;
    return new Response(outcome.json, { status, headers: { "Cache-Control": "no-store", "Content-Type": "application/json" } });
  };
  const answerJson = async (args: RouteArgs): Promise<Response | JsonAnswer> => {
    const outcome = await run(args);
    return outcome instanceof Response ? outcome : jsonAnswer(status, outcome.json);
  };
  const { rateLimit, ...spec } = config;
  return Object.assign(route, { api: [{ ...spec, rateLimited: !!rateLimit } as ApiSpec], answerJson });
}

/** The scope an API key needs for an operation (decision 285), or null when no key may make it. */
export function keyScope(spec: Pick<ApiSpec, "scope">, method: Method): Scope | null {
  if (spec.scope !== undefined) return spec.scope;
  return method === "GET" ? "read" : null;
}

/** One action taking several methods: `export const action = apiMethods(patch, remove)`. */
export function apiMethods(...routes: ApiHandler[]): ApiHandler {
  const matching = (args: RouteArgs) =>
    routes.find((candidate) => candidate.api.some((spec) => spec.method && methodMatches(spec.method, args.request.method)));
  const route = async (args: RouteArgs) => matching(args)?.(args) ?? methodNotAllowed();
  const answerJson = async (args: RouteArgs) => matching(args)?.answerJson(args) ?? methodNotAllowed();
  return Object.assign(route, { api: routes.flatMap((candidate) => candidate.api), answerJson });
}

function methodMatches(declared: Method, actual: string) {
  return actual === declared || (declared === "GET" && actual === "HEAD");
}

export function toErrorResponse(error: unknown, requestId: string, request?: Request): Response {
  if (error instanceof HttpError) return httpErrorResponse(error);
  if (error instanceof Response) return error;
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, requestId, url: request?.url }, "database unavailable");
    return jsonError(503, DATABASE_UNAVAILABLE_MESSAGE, ERROR_CODES[503], { requestId, headers: { "Retry-After": "5" } });
  }
  logger.error({ err: error, requestId, url: request?.url }, "unhandled API error");
  return jsonError(500, INTERNAL_ERROR_MESSAGE, ERROR_CODES[500], { requestId });
}

/** Zod helpers shared by the API schemas. Ids compare lower-case: an upper-cased uuid names the same thing. */
export const uuidParam = (message = "Not found.") => z.string().uuid({ message }).toLowerCase();
