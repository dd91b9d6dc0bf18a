import fc from "fast-check";
import { describe, expect, test } from "vitest";

import { csvAmount, csvCell } from "~/domain/csv";

/** Splits one CSV line the way a spreadsheet does for a chosen separator, honouring double quotes. */
function split(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted && char === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === separator) {
      cells.push(cell);
      cell = "";
    } else {
      cell += char;
    }
  }
  cells.push(cell);
  return cells;
}

const hostile = ["x;=2+5", "x,=2+5", '=HYPERLINK("http://evil")', "+1", "-1+2", "@SUM(A1)", "\t=1", "\r=1", " =1+1", 'a "b";=c'];

describe("csvCell", () => {
  test("every text cell is quoted, inner quotes doubled", () => {
    expect(csvCell("plain")).toBe('"plain"');
    expect(csvCell('say "hi", then')).toBe('"say ""hi"", then"');
    expect(csvCell("")).toBe('""');
    expect(csvCell(null)).toBe("");
    expect(csvCell(new Date("2026-01-02T03:04:05.000Z"))).toBe('"2026-01-02T03:04:05.000Z"');
  });

  test("text a spreadsheet would run as a formula starts with an apostrophe", () => {
    expect(csvCell("=1+1")).toBe(`"'=1+1"`);
    expect(csvCell("\t=1")).toBe(`"'\t'=1"`);
    expect(csvCell(" =1+1")).toBe(`"' =1+1"`);
  });

  test.each([",", ";", "\t"])("no cell starts a formula when the line is split on %j", (separator) => {
    const line = [...hostile.map(csvCell), csvAmount(1234)].join(",");
    const cells = split(line, separator);
    expect(cells.filter((cell) => /^\s*[=+\-@]/.test(cell))).toEqual([]);
  });

  test("split on commas, each cell reads back as its text (defused) and the amount as a number", () => {
    const line = [...["x;=2+5", 'a "b";=c', "=1", "plain", "Jo, Ann; Bo"].map(csvCell), csvAmount(1234)].join(",");
    expect(split(line, ",")).toEqual(["x;'=2+5", `a "b";'=c`, "'=1", "plain", "Jo, Ann; Bo", "12.34"]);
  });

  test("a formula after a separator inside the text is defused too, for a reader that ignores the quotes", () => {
    expect(csvCell("Jo;=2*21;")).toBe(`"Jo;'=2*21;"`);
    expect(csvCell("a,+1")).toBe(`"a,'+1"`);
    expect(csvCell("a;\t@x")).toBe(`"a;'\t'@x"`);
    expect(csvCell('a; "=1')).toBe(`"a;' ""=1"`);
    expect(csvCell("\tplain")).toBe(`"'\tplain"`);
  });

  test("property: no piece of a cell, split on , ; tab CR or LF without regard to quotes, starts a formula", () => {
    const pieces = fc.constantFrom("=", "+", "-", "@", ",", ";", "\t", "\r", "\n", " ", '"', "'", "a", "1", "SUM(A1)", "\u00a0");
    const text = fc.oneof(
      fc.string(),
      fc.array(pieces, { maxLength: 24 }).map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(text, (value) => {
        const cell = csvCell(value);
        const starts = cell.split(/[,;\t\r\n]/).filter((piece) => /^[\s"]*[=+\-@]/.test(piece));
        expect(starts).toEqual([]);
        // Read back with its quotes honoured, the cell is the text with apostrophes added and nothing lost.
        expect(split(cell, ",").join(",").replace(/'/g, "")).toBe(value.replace(/'/g, ""));
      }),
      { numRuns: 5000, seed: 260 },
    );
  });

  test("amounts stay numbers, negative ones included", () => {
    expect(csvAmount(1234)).toBe("12.34");
    expect(csvAmount(-500)).toBe("-5.00");
    expect(csvAmount(0)).toBe("0.00");
  });
});
