import fs from "node:fs";
import path from "node:path";

/**
 * The import aliases, declared once in tsconfig.json's `paths` (which tsc, tsx and esbuild read) and
 * turned here into the alias map Vite and Vitest need: `{ "~/*": ["./app/*"] }` → `{ "~": "<root>/app" }`.
 */
const root = path.resolve(import.meta.dirname, "..");
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, "tsconfig.json"), "utf8")) as { compilerOptions: { paths: Record<string, string[]> } };

export const alias: Record<string, string> = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([name, [target]]) => [name.replace(/\/\*$/, ""), path.resolve(root, target.replace(/\/\*$/, ""))]),
);
