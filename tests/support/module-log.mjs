// Preloaded into a server under test (NODE_OPTIONS=--import): every module URL that resolves to an
// OpenTelemetry package is appended, one a line, to the file named by MODULE_LOG.
import { register } from "node:module";

register("./module-log-hooks.mjs", import.meta.url, { data: { file: process.env.MODULE_LOG } });
