import { pino } from "pino";
import { env } from "./env.server";

export const logger = pino({
  level: env.isTest ? "silent" : env.logLevel,
  redact: ["req.headers.authorization", "req.headers.cookie", "password", "token"],
});
