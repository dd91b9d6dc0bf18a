import { flatRoutes, type DefineRoutesFunction } from "remix-flat-routes";

/**
 * The route table, read from app/routes with remix-flat-routes (decision 242): `api+/users+/count.ts`
 * is the route `api.users.count`, a folder's `_layout.tsx` is the folder's own route.
 *
 * The routes come back in the order Remix's own file convention gives them, the longest flat name
 * first. Where two routes of equal rank match one URL (`/api/services/purchases/brief` is both
 * `api.services.purchases.$id` and `api.services.$id.brief`), React Router and the /api fast path
 * (server/api-fast-path.ts) take the earlier one, so the order is behaviour.
 */
export function routes(defineRoutes: DefineRoutesFunction) {
  const table = flatRoutes("routes", defineRoutes, { ignoredRouteFiles: ["**/*.test.ts", "**/*.test.tsx"] });
  return Object.fromEntries(Object.entries(table).sort(([a], [b]) => flatName(b).length - flatName(a).length));
}

/**
 * The name a route had as one flat file: `routes/api+/users+/count` → `routes/api.users.count`,
 * `routes/dashboard+/_layout` → `routes/dashboard`, and a pathless folder adds nothing
 * (`routes/_auth+/login` → `routes/login`).
 */
function flatName(id: string): string {
  return id
    .replace(/\+\/_layout$/, "")
    .replace(/^routes\/_[^/.]+\+\//, "routes/")
    .replace(/\/_[^/.]+\+\//g, "/")
    .replace(/\+\//g, ".");
}
