import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every patch in patches/ is applied to what npm installed (patch-package runs on postinstall with
 * --error-on-warn): each line a patch adds is present in the file it patches. A dependency bump that
 * makes a patch stale fails here, not as a silent loss of the fix (decisions 009, 150, 251, 252 and 312).
 */
const root = path.resolve(import.meta.dirname, "../..");
const patchDir = path.join(root, "patches");

function addedLinesByFile(patch: string): Map<string, string[]> {
  const files = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of patch.split("\n")) {
    const target = /^\+\+\+ b\/(.+)$/.exec(line);
    if (target) {
      current = [];
      files.set(target[1], current);
    } else if (current && line.startsWith("+") && line.trim().length > 1) {
      current.push(line.slice(1));
    }
  }
  return files;
}

const patches = fs.readdirSync(patchDir).filter((name) => name.endsWith(".patch"));

describe("patches/ applied to node_modules", () => {
  it("holds the five patches the decisions name", () => {
    expect(patches.sort()).toEqual([
      "@electric-sql+pglite+0.5.16.patch",
      "@remix-run+react+2.17.5.patch",
      "@remix-run+router+1.23.3.patch",
      "postgres+3.4.9.patch",
      "react-dom+18.3.1.patch",
    ]);
  });

  it("runs patch-package on install and fails the install on a stale patch", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.postinstall).toBe("patch-package --error-on-warn");
  });

  for (const name of patches) {
    it(`${name}: every added line is in the installed file`, () => {
      const files = addedLinesByFile(fs.readFileSync(path.join(patchDir, name), "utf8"));
      expect(files.size).toBeGreaterThan(0);
      for (const [file, added] of files) {
        expect(added.length, file).toBeGreaterThan(0);
        const installed = fs.readFileSync(path.join(root, file), "utf8");
        const missing = added.filter((line) => !installed.includes(line));
        expect(missing, `${file} lacks lines of ${name}: run npm install`).toEqual([]);
      }
    });
  }
});
