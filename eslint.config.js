import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/*
 * Which folder may import which (README: Architecture). Imports run one way:
 * routes and components -> realtime -> web -> models -> utils -> db, and app/domain may be
 * imported from anywhere but imports nothing of the app. One no-restricted-imports entry per
 * folder, since a later entry for the same file replaces an earlier one.
 */
const zodInBrowser = { name: "zod", message: "Import z from ~/domain/zod: it switches off zod's eval probe, which the CSP blocks." };
const never = (what, why) => ({ group: what, message: why });
const noServer = never(["**/*.server", "**/*.server.*"], "Server-only code (*.server) never reaches this folder: it would ship to the browser or invert the layers.");
const noDb = never(["#db/*", "drizzle-orm", "drizzle-orm/*"], "Reach the database through app/models (and app/utils/db.server.ts there).");
const LAYERS = {
  "app/domain/**": {
    patterns: [
      never(["~/*", "!~/domain", "!~/domain/*", "!~/domain/**", "#db/*"], "app/domain imports nothing of the app: it is the floor everything stands on."),
      never(["react", "react-dom", "react/*", "react-dom/*", "@remix-run/*"], "app/domain is isomorphic rules and shapes: no React, no Remix."),
      noServer,
    ],
  },
  "app/utils/**": {
    patterns: [never(["~/models/*", "~/web/*", "~/components/*", "~/routes/*", "~/realtime/*"], "app/utils is infrastructure: it never imports models, web, components, routes or realtime.")],
  },
  "app/models/**": {
    patterns: [never(["~/components/*", "~/routes/*", "~/realtime/*", "~/web/*"], "Models never import components, routes, realtime or web: move the shared rule to app/domain.")],
  },
  "app/web/**": {
    patterns: [never(["~/components/*", "~/routes/*", "~/realtime/*"], "app/web (the request layer) sits under routes, components and realtime."), noDb],
  },
  "app/realtime/**": {
    patterns: [never(["~/components/*", "~/routes/*"], "app/realtime sits under routes and components."), noDb],
  },
  "app/components/**": {
    paths: [zodInBrowser],
    patterns: [
      never(["~/models/*", "~/web/*", "~/routes/*"], "Components are views: data comes from loaders; shared rules from app/domain."),
      noServer,
      noDb,
    ],
  },
  "app/routes/**": {
    paths: [zodInBrowser],
    patterns: [noDb],
  },
  "app/routes/**/*.ts": {
    // Resource routes (api.*, files.*) never reach the browser: they may use zod directly.
    patterns: [noDb],
  },
};
function boundaries() {
  return Object.entries(LAYERS).map(([files, options]) => ({
    files: [files],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", options] },
  }));
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
    files: ["app/utils/env.server.ts", "tests/**", "scripts/**", "bench/**", "vitest.config.ts", "playwright.config.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-properties": "off" },
  },
);
