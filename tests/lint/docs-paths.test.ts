import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The README, the guides in docs/ and every decision record name files that exist: a path in
 * backticks under one of the project's folders must be there (a moved file gets its new path; a
 * removed one is described, not named). Globs and placeholders (`*`, `…`, `<…>`, `$`) are patterns, not files.
 */
const root = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["app", "tests", "db", "scripts", "bench", "deploy", "patches", "public", "docs", "server"];
const pathInBackticks = new RegExp("`((?:" + FOLDERS.join("|") + ")/[^`\\s]+)`", "g");

function documents(): string[] {
  const docs = path.join(root, "docs");
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : entry.name.endsWith(".md") ? [full] : [];
    });
  return [path.join(root, "README.md"), path.join(root, "bench/README.md"), ...walk(docs)];
}

/** Folders the project writes and git ignores (`/bench/results` in .gitignore): named in docs, absent from a clone. */
const generated = fs
  .readFileSync(path.join(root, ".gitignore"), "utf8")
  .split("\n")
  .filter((line) => line.startsWith("/") && !/[*?[]/.test(line))
  .map((line) => line.slice(1).replace(/\/$/, ""));

const isGenerated = (relative: string) => generated.some((folder) => relative === folder || relative.startsWith(folder + "/"));

function missingPaths(text: string, exists: (relative: string) => boolean): string[] {
  const missing: string[] = [];
  for (const [, named] of text.matchAll(pathInBackticks)) {
    if (/[*…<>$]/.test(named)) continue;
    const file = named.replace(/[:#].*$/, "").replace(/[),.;]+$/, "");
    if (!exists(file)) missing.push(named);
  }
  return missing;
}

describe("paths named in the docs", () => {
  it("finds a missing path and ignores patterns", () => {
    const exists = (p: string) => p === "app/root.tsx";
    expect(missingPaths("see `app/root.tsx:12` and `app/gone.ts`, `app/routes/api.*.ts`, `app/<x>.ts`", exists)).toEqual(["app/gone.ts"]);
  });

  it("counts a git-ignored output folder as named rightly", () => {
    expect(generated).toContain("bench/results");
    expect(isGenerated("bench/results")).toBe(true);
    expect(isGenerated("bench/resultsx")).toBe(false);
  });

  for (const file of documents()) {
    it(path.relative(root, file), () => {
      const missing = missingPaths(
        fs.readFileSync(file, "utf8"),
        (relative) => isGenerated(relative.replace(/\/$/, "")) || fs.existsSync(path.join(root, relative)),
      );
      expect(missing, "name the file's new path, or describe what was removed").toEqual([]);
    });
  }
});
