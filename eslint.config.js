import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

import layers from "./scripts/lint/layers.js";

/*
 * Which folder may import which (README: Architecture) is the local rule `layers/layers`
 * (scripts/lint/layers.js): imports are resolved to paths, so `../web/x` is held to the same zones
 * as `~/web/x`. The entries below restrict packages per folder: one no-restricted-imports entry per
 * folder, since a later entry for the same file replaces an earlier one.
 */
const zodInBrowser = { name: "zod", message: "Import z from ~/domain/zod: it switches off zod's eval probe, which the CSP blocks." };
const never = (what, why) => ({ group: what, message: why });
const noDb = never(["drizzle-orm", "drizzle-orm/*"], "Reach the database through app/models (and app/utils/db.server.ts there).");
const PACKAGES = {
  "app/domain/**": {
    patterns: [never(["react", "react-dom", "react/*", "react-dom/*", "@remix-run/*"], "app/domain is isomorphic rules and shapes: no React, no Remix.")],
  },
  "app/web/**": { patterns: [noDb] },
  "app/realtime/**": { patterns: [noDb] },
  "app/components/**": { paths: [zodInBrowser], patterns: [noDb] },
  "app/routes/**": { paths: [zodInBrowser], patterns: [noDb] },
  "app/routes/**/*.ts": {
    // Resource routes (api+/, files.*) never reach the browser: they may use zod directly.
    patterns: [noDb],
  },
};
function boundaries() {
  const packages = Object.entries(PACKAGES).map(([files, options]) => ({
    files: [files],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", options] },
  }));
  return [{ files: ["**/*.{js,mjs,ts,tsx}"], plugins: { layers }, rules: { "layers/layers": "error" } }, ...packages];
}

export default tseslint.config(
  { ignores: ["build/**", "build-*/**", "data/**", "data-*/**", "node_modules/**", "test-results/**", "playwright-report/**", "bench/results/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-restricted-properties": ["error", { object: "process", property: "env", message: "Read settings from app/utils/env.server.ts." }],
      // The contracts and spec are not in the repository: say the rule, or point to docs/api.md.
      "no-warning-comments": ["error", { terms: ["contracts §", "spec §", "contracts' §", "product-spec §"], location: "anywhere" }],
    },
  },
  ...boundaries(),
  {
    files: [
      "app/utils/env.server.ts",
      "tests/**",
      "scripts/**",
      "bench/**",
      "vitest.config.ts",
      "playwright.config.ts",
      "playwright.nodes.config.ts",
      "**/*.test.ts",
      "**/*.test.tsx",
    ],
    rules: { "no-restricted-properties": "off" },
  },
);
