import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

import { alias } from "./scripts/aliases";
import { routes } from "./scripts/routes";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  resolve: { alias },
  // Licence banners go to the end of each chunk, once: lucide-react repeats its banner in every icon
  // module, and 70 copies inline made Lighthouse call the icons chunk unminified.
  esbuild: { legalComments: "eof" },
  build: {
    target: "es2022",
    // A few shared chunks (framework, icons, design system) instead of dozens of tiny ones: on a
    // slow mobile connection every extra request is another round trip before first paint.
    rollupOptions: {
      output: {
        manualChunks(id) {
          if (/\/node_modules\/(react|react-dom|scheduler|@remix-run|react-router|react-router-dom|turbo-stream)\//.test(id)) return "framework";
          if (id.includes("/node_modules/lucide-react/")) return "icons";
          if (/\/app\/components\/ui\/|\/node_modules\/(clsx|tailwind-merge)\//.test(id)) return "ui";
          return undefined;
        },
      },
    },
  },
  optimizeDeps: {
    // Pre-bundle the browser's dependencies at start-up: discovered one page at a time, each new
    // one makes Vite re-optimise and reload, and the first page load can see two Reacts.
    include: [
      "react",
      "react-dom",
      "react-dom/client",
      "react/jsx-runtime",
      "@remix-run/react",
      "lucide-react",
      "clsx",
      "tailwind-merge",
      "sonner",
      "zod",
      "@conform-to/react",
      "@conform-to/zod/v4",
      "socket.io-client",
    ],
    exclude: ["@node-rs/argon2", "@electric-sql/pglite"],
  },
  server: { middlewareMode: true },
  plugins: [
    tailwindcss(),
    remix({
      // BUILD_DIR lets several checkouts' suites build side by side; `build` by default.
      // eslint-disable-next-line no-restricted-properties -- build configuration, not an app setting
      buildDirectory: process.env.BUILD_DIR ?? "build",
      // Routes live in `+` folders, read by scripts/routes.ts (remix-flat-routes, decision 242):
      // Remix's own file convention reads nothing.
      ignoredRouteFiles: ["**/*"],
      routes: async (defineRoutes) => routes(defineRoutes),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
});
