import { z } from "zod";

/*
 * zod 4 probes `new Function("")` to JIT object parsers; our CSP (no 'unsafe-eval') blocks the probe
 * and the browser reports a CSP issue on every page that builds a schema. Plain parsing is fast
 * enough for forms. Import `z` from here (not from "zod") in every schema that reaches the browser.
 */
z.config({ jitless: true });

export { z };

/*
 * Text input never carries NUL or other control characters: they break logs, headers, file names
 * and PostgreSQL (which refuses NUL in text). `line` is for one-line fields (none at all); `text`
 * for multi-line ones, which keep tab and line breaks (\r\n from a textarea). The message names the field.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const controlCharacterMessage = (label: string) => `${label} contains characters that are not allowed`;

export function hasControlCharacters(value: string, options: { multiline?: boolean } = {}) {
  return (options.multiline ? CONTROL_CHARACTERS_BUT_LINES : CONTROL_CHARACTERS).test(value);
}

/** A one-line text field: `schema` refusing any control character with the field's message. */
export function line<S extends z.ZodType<string>>(schema: S, label: string): S {
  return schema.refine((value) => !hasControlCharacters(value), { message: controlCharacterMessage(label) }) as S;
}

/** A multi-line text field: tab and line breaks are fine, other control characters are refused. */
export function text<S extends z.ZodType<string>>(schema: S, label: string): S {
  return schema.refine((value) => !hasControlCharacters(value, { multiline: true }), { message: controlCharacterMessage(label) }) as S;
}
