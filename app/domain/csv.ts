/*
 * CSV cells for exports that people open in spreadsheets. Every text cell is quoted, so a separator
 * inside the text (`,` or the `;` many locales split on) never starts a new cell for a reader that
 * honours quotes. For one that does not (or that splits on `;`, a tab or a line break anyway), any
 * piece of the text that would start a cell after such a split and begins like a formula (= + - @,
 * also after spaces or quotes) gets an apostrophe in front of it, as does text that starts with a tab
 * or CR. Amounts are the only unquoted cells, so they stay numbers. docs/decisions/093, 132 and 260.
 */

/** A separator some reader splits on, followed by a formula (after any spaces or quotes it might drop). */
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n])(?=[\s"]*[=+\-@])/g;
const FORMULA_OR_CONTROL_START = /^(?:[\t\r]|[\s"]*[=+\-@])/;

/** The text with an apostrophe before every piece that could start a cell and be read as a formula. */
function defuseFormulas(text: string): string {
  const defused = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return FORMULA_OR_CONTROL_START.test(defused) ? `'${defused}` : defused;
}

/** A text cell (or a date, written ISO 8601); null and undefined are an empty cell. */
export function csvCell(value: string | Date | null | undefined): string {
  if (value === null || value === undefined) return "";
  const text = value instanceof Date ? value.toISOString() : defuseFormulas(value);
  return `"${text.replace(/"/g, '""')}"`;
}

/** An amount in cents as a plain decimal number, never quoted (digits, a point and maybe a minus). */
export function csvAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}
