import cluster from "node:cluster";

import { env } from "../app/utils/env.server";

/*
 * The process's first module: with OTEL_EXPORTER_OTLP_ENDPOINT set, OpenTelemetry starts before the
 * server and the app are imported (an instrumentation patches a module only as it loads); without
 * it nothing of OpenTelemetry is loaded (decision 275). A cluster's primary serves nothing: no traces.
 */
if (env.otlpEndpoint && !(cluster.isPrimary && env.webConcurrency > 1)) {
  const { startTracing } = await import("./tracing");
  await startTracing(env.otlpEndpoint);
}
await import("../server");
