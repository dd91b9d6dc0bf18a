import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Decision records keep one template (docs/decisions/README.md): Context, Decision, Consequences, in
 * that order, with no amendment sections. Records, guides and code explain why in the product's own
 * words and cite decision records; an issue number of a tracker the repository does not hold means
 * nothing to the next reader (decision 259).
 */
const root = path.resolve(import.meta.dirname, "../..");
const decisions = path.join(root, "docs/decisions");
const records = fs.readdirSync(decisions).filter((name) => /^\d{3}-.+\.md$/.test(name));

const HEADINGS = ["## Context", "## Decision", "## Consequences"];
const trackerReference = new RegExp("\\b[Ii]ssues? #?" + "\\d+");

function headingsOf(text: string): string[] {
  return text.split("\n").filter((line) => line.startsWith("## "));
}

function walk(dir: string, extensions: string[]): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "results" ? [] : walk(full, extensions);
    return extensions.some((ext) => entry.name.endsWith(ext)) ? [full] : [];
  });
}

describe("decision records", () => {
  it("finds the headings of a record", () => {
    expect(headingsOf("# 1 — x\n\n## Context\na\n## Decision\nb\n## Consequences\nc\n")).toEqual(HEADINGS);
  });

  for (const name of records) {
    it(`${name} has Context, Decision and Consequences`, () => {
      const headings = headingsOf(fs.readFileSync(path.join(decisions, name), "utf8"));
      const positions = HEADINGS.map((heading) => headings.indexOf(heading));
      expect(
        positions.every((position) => position >= 0),
        `headings: ${headings.join(", ")}`,
      ).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(headings.filter((heading) => /amend/i.test(heading))).toEqual([]);
    });
  }
});

describe("no tracker issue numbers", () => {
  it("recognises one", () => {
    expect(trackerReference.test("see issue " + "20.11")).toBe(true);
    expect(trackerReference.test("(issues 10 and 13)")).toBe(true);
    expect(trackerReference.test("an issuer named BrandLift")).toBe(false);
  });

  const self = path.join(root, "tests/lint/decision-records.test.ts");
  const places: Record<string, string[]> = {
    "README.md and docs/": [path.join(root, "README.md"), ...walk(path.join(root, "docs"), [".md"])],
    ...Object.fromEntries(
      ["app", "server", "db", "scripts", "tests", "bench"].map((dir) => [
        `${dir}/`,
        walk(path.join(root, dir), [".ts", ".tsx", ".mjs", ".js", ".sql", ".css"]),
      ]),
    ),
  };
  for (const [place, files] of Object.entries(places)) {
    it(place, () => {
      const hits = files
        .filter((file) => file !== self)
        .flatMap((file) =>
          fs
            .readFileSync(file, "utf8")
            .split("\n")
            .flatMap((line, index) => (trackerReference.test(line) ? [`${path.relative(root, file)}:${index + 1}: ${line.trim()}`] : [])),
        );
      expect(hits, "say why, and cite a decision record instead").toEqual([]);
    });
  }
});
