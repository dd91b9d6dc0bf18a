import { z } from "zod";

/*
 * zod 4 probes `new Function("")` to JIT object parsers; our CSP (no 'unsafe-eval') blocks the probe
 * and the browser reports a CSP issue on every page that builds a schema. Plain parsing is fast
 * enough for forms. Import `z` from here (not from "zod") in every schema that reaches the browser.
 */
z.config({ jitless: true });

export { z };

/*
 * The one text rule (decision 066). Text input never carries NUL or other C0/C1 control characters:
 * they break logs, headers, file names and PostgreSQL (which refuses NUL in text). Nor does it carry
 * the bidirectional override and isolate characters (U+202A–U+202E, U+2066–U+2069): they make a
 * name display as something else ("Nora\u202Egnp.exe"), in the dashboard, e-mails and logs.
 * `line` is for one-line fields (names, titles, searches); `text` for multi-line ones, which keep tab
 * and line breaks (\r\n from a textarea). The message names the field and says what is refused.
 * (A file name is not a name field: its bidi characters are removed, see sanitizeFileName.)
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

export const controlCharacterMessage = (label: string) => `${label} contains characters that are not allowed (control or text-direction characters)`;

/** C0 and C1 control characters (but tab and line breaks when multi-line). */
export function hasControlCharacters(value: string, options: { multiline?: boolean } = {}) {
  return (options.multiline ? CONTROL_CHARACTERS_BUT_LINES : CONTROL_CHARACTERS).test(value);
}

/** Whether `value` breaks the text rule: control characters, or bidi overrides and isolates. */
export function breaksTextRule(value: string, options: { multiline?: boolean } = {}) {
  return hasControlCharacters(value, options) || BIDI_CONTROLS.test(value);
}

/** A one-line text field (a name, a title): `schema` refusing what the text rule refuses, with the field's message. */
export function line<S extends z.ZodType<string>>(schema: S, label: string): S {
  return schema.refine((value) => !breaksTextRule(value), { message: controlCharacterMessage(label) }) as S;
}

/** A multi-line text field: tab and line breaks are fine, the rest of the text rule holds. */
export function text<S extends z.ZodType<string>>(schema: S, label: string): S {
  return schema.refine((value) => !breaksTextRule(value, { multiline: true }), { message: controlCharacterMessage(label) }) as S;
}
