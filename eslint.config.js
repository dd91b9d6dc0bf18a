import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/**", "data/**", "node_modules/**", "test-results/**", "playwright-report/**", "bench/results/**"] },
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
    },
  },
  {
    files: ["app/components/**", "app/routes/**/*.tsx"],
    ignores: ["app/utils/zod.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "zod", message: "Import z from ~/utils/zod: it switches off zod's eval probe, which the CSP blocks." }] }],
    },
  },
  {
    files: ["app/utils/env.server.ts", "tests/**", "scripts/**", "bench/**", "vitest.config.ts", "playwright.config.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-properties": "off" },
  },
);
