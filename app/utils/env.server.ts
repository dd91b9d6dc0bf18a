import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";

/** Every setting, validated once at boot (README: Settings). Nothing else reads process.env. */

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const optionalUrl = (protocols: string[]) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => p + "//").join(" or ")}` },
  );

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  APP_URL: optionalUrl(["http:", "https:"]),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: optionalUrl(["postgres:", "postgresql:"]),
  REDIS_URL: optionalUrl(["redis:", "rediss:"]),
  SESSION_SECRET: optionalString,
  STRIPE_SECRET_KEY: optionalString.refine((v) => v === undefined || /^(sk|rk)_/.test(v), {
    message: "must start with sk_ or rk_",
  }),
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalUrl(["http:", "https:"]),
  SMTP_URL: optionalUrl(["smtp:", "smtps:"]),
  MAIL_FROM: z.string().default("BrandLift <hello@brandlift.test>"),
  STORAGE_DIR: optionalString,
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalUrl(["http:", "https:"]),
  S3_REGION: z.string().default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  TEAM_INBOX: optionalString.refine((v) => v === undefined || v.split(",").every((e) => z.email().safeParse(e.trim()).success), {
    message: "must be a comma-separated list of e-mail addresses",
  }),
  TRUST_PROXY: z.string().default("loopback"),
  WEB_CONCURRENCY: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(64).optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TEAM_2FA: z.enum(["optional", "required"], { message: "must be optional or required" }).default("optional"),
  METRICS_TOKEN: optionalString,
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(["http:", "https:"]),
  WEBHOOKS_ALLOW_PRIVATE: z.enum(["0", "1", ""], { error: "must be 1 or 0" }).default("0"),
  PASSWORD_HASH_COST: z.enum(["production", "test", ""], { error: "must be production or test" }).default("production"),
  INBOUND_DOMAIN: optionalString.refine((v) => v === undefined || /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(v), { message: "must be a domain name" }),
  INBOUND_SECRET: optionalString,
  PAGE_CACHE_SECONDS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).max(60).default(5)),
});

export class EnvError extends Error {
  constructor(public issues: string[]) {
    super(`Invalid settings:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined>) {
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const raw = result.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  const appUrl = (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, "");
  const s3 = raw.S3_BUCKET
    ? {
        bucket: raw.S3_BUCKET,
        endpoint: raw.S3_ENDPOINT,
        region: raw.S3_REGION,
        accessKeyId: raw.S3_ACCESS_KEY_ID,
        secretAccessKey: raw.S3_SECRET_ACCESS_KEY,
      }
    : undefined;
  if (raw.STRIPE_SECRET_KEY && !raw.STRIPE_WEBHOOK_SECRET && raw.NODE_ENV === "production") {
    throw new EnvError(["STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set"]);
  }
  // The embedded database belongs to one process: several workers need PostgreSQL.
  if ((raw.WEB_CONCURRENCY ?? 1) > 1 && !raw.DATABASE_URL) {
    throw new EnvError(["WEB_CONCURRENCY: more than one worker needs DATABASE_URL (the embedded database is one process's)"]);
  }
  return {
    nodeEnv: raw.NODE_ENV,
    isProduction: raw.NODE_ENV === "production",
    isTest: raw.NODE_ENV === "test",
    port: raw.PORT,
    host: raw.HOST,
    appUrl,
    secureCookies: appUrl.startsWith("https://"),
    dataDir,
    databaseUrl: raw.DATABASE_URL,
    redisUrl: raw.REDIS_URL,
    sessionSecrets: raw.SESSION_SECRET?.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    stripe: raw.STRIPE_SECRET_KEY ? { secretKey: raw.STRIPE_SECRET_KEY, apiUrl: raw.STRIPE_API_URL } : undefined,
    stripeWebhookSecret: raw.STRIPE_WEBHOOK_SECRET,
    smtpUrl: raw.SMTP_URL,
    mailFrom: raw.MAIL_FROM,
    storageDir: path.resolve(raw.STORAGE_DIR ?? path.join(dataDir, "uploads")),
    outboxDir: path.join(dataDir, "outbox"),
    s3,
    teamInbox: raw.TEAM_INBOX?.split(",").map((e) => e.trim()),
    logLevel: raw.LOG_LEVEL,
    /** "required": a team account without a second factor (authenticator or passkey) reaches only the page that sets one up. */
    teamTwoFactor: raw.TEAM_2FA,
    /** GET /metrics answers a scrape that brings this bearer token; unset, /metrics is a 404. */
    metricsToken: raw.METRICS_TOKEN,
    /** OpenTelemetry traces go to this OTLP/HTTP collector; unset, no tracing code is loaded. */
    otlpEndpoint: raw.OTEL_EXPORTER_OTLP_ENDPOINT,
    /** "1": webhooks may be sent to private, loopback and link-local addresses (docs/decisions/287). */
    webhooksAllowPrivate: raw.WEBHOOKS_ALLOW_PRIVATE === "1",
    /** "test" (honoured only with NODE_ENV=test): passwords hashed at argon2's smallest cost, for `npm test` (decision 312). */
    passwordHashCost: raw.PASSWORD_HASH_COST === "test" && raw.NODE_ENV === "test" ? ("test" as const) : ("production" as const),
    /** Chat notices carry Reply-To: reply+<token>@INBOUND_DOMAIN; unset, they carry none. */
    inboundDomain: raw.INBOUND_DOMAIN,
    /** POST /api/inbound/email answers a provider bringing this bearer token; unset, it is a 404. */
    inboundSecret: raw.INBOUND_SECRET,
    /** How long a signed-in page is answered again from memory while no data changes (server/page-cache.ts); 0 turns it off. */
    pageCacheMs: raw.PAGE_CACHE_SECONDS * 1000,
    /** Worker processes: WEB_CONCURRENCY, else every core on PostgreSQL and one on the embedded database. */
    webConcurrency: raw.WEB_CONCURRENCY ?? (raw.DATABASE_URL && raw.NODE_ENV === "production" ? os.availableParallelism() : 1),
    trustProxy: /^\d+$/.test(raw.TRUST_PROXY) ? Number(raw.TRUST_PROXY) : raw.TRUST_PROXY === "true" ? true : raw.TRUST_PROXY,
  };
}

export type Env = ReturnType<typeof parseEnv>;

/** The signing secrets: from SESSION_SECRET, else generated once and kept in DATA_DIR. */
export function sessionSecrets(e: Env): string[] {
  if (e.sessionSecrets?.length) return e.sessionSecrets;
  const file = path.join(e.dataDir, "session-secret");
  fs.mkdirSync(e.dataDir, { recursive: true });
  try {
    return [fs.readFileSync(file, "utf8").trim()];
  } catch {
    const secret = crypto.randomBytes(32).toString("hex");
    fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return [secret];
  }
}

function load(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

export const env: Env = load();
