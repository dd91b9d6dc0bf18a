import { createRequestHandler, type ServerBuild } from "@remix-run/node";

/** A route of a hand-made build: its module and where it sits. */
export interface BuildRoute {
  id: string;
  path: string;
  parentId?: string;
  module: Record<string, unknown>;
}

/**
 * Remix's request handler over a build made of the given entry and route modules (no bundler): what
 * the production server runs for these routes, single fetch and all, with placeholder asset paths.
 */
export function handlerFor(entry: Record<string, unknown>, routes: BuildRoute[]) {
  const build = {
    mode: "production",
    entry: { module: entry },
    routes: Object.fromEntries(routes.map((route) => [route.id, route])),
    assets: {
      entry: { module: "/assets/entry.client.js", imports: ["/assets/chunk.js"] },
      routes: Object.fromEntries(
        routes.map(({ id, path, parentId, module }) => [
          id,
          {
            id,
            path,
            parentId,
            module: `/assets/${id.replace(/\W+/g, "-")}.js`,
            imports: [],
            hasAction: typeof module.action === "function",
            hasLoader: typeof module.loader === "function",
            hasClientAction: false,
            hasClientLoader: false,
            hasErrorBoundary: typeof module.ErrorBoundary === "function",
          },
        ]),
      ),
      url: "/assets/manifest.js",
      version: "1",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true },
    isSpaMode: false,
  } as unknown as ServerBuild;
  return createRequestHandler(build, "production");
}
