/*
 * CSV cells for exports that people open in spreadsheets. Every text cell is quoted, so a separator
 * inside the text (`,` or the `;` many locales split on) never starts a new cell; text a spreadsheet
 * would run as a formula (= + - @, tab, CR, also after leading spaces) starts with an apostrophe.
 * Amounts are the only unquoted cells, so they stay numbers. docs/decisions/093 and 132.
 */

const FORMULA_START = /^(?:[\t\r]|\s*[=+\-@])/;

/** A text cell (or a date, written ISO 8601); null and undefined are an empty cell. */
export function csvCell(value: string | Date | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = value instanceof Date ? value.toISOString() : value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** An amount in cents as a plain decimal number, never quoted (digits, a point and maybe a minus). */
export function csvAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}
