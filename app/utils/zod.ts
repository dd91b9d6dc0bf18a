import { z } from "zod";

/*
 * zod 4 probes `new Function("")` to JIT object parsers; our CSP (no 'unsafe-eval') blocks the probe
 * and the browser reports a CSP issue on every page that builds a schema. Plain parsing is fast
 * enough for forms. Import `z` from here (not from "zod") in every schema that reaches the browser.
 */
z.config({ jitless: true });

export { z };
