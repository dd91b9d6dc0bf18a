import fs from "node:fs";
import path from "node:path";
import { flatRoutes, type DefineRoutesFunction } from "remix-flat-routes";

/**
 * The route table, read from app/routes with remix-flat-routes (decision 242): `api+/users+/count.ts`
 * is the route `api.users.count`, a folder's `_layout.tsx` is the folder's own route, and a nested
 * pathless folder adds nothing (`dashboard+/_staff+/leads.tsx` is `dashboard.leads`, decision 308).
 * A route's helpers (`*.server.ts`, in a plain sub-folder) are never routes.
 *
 * The routes come back in the order Remix's own file convention gives them, the longest flat name
 * first. Where two routes of equal rank match one URL (`/api/services/purchases/brief` is both
 * `api.services.purchases.$id` and `api.services.$id.brief`), React Router and the /api fast path
 * (server/api-fast-path.ts) take the earlier one, so the order is behaviour.
 */
export function routes(defineRoutes: DefineRoutesFunction) {
  const table = flatRoutes("routes", defineRoutes, { ignoredRouteFiles: ["**/*.test.ts", "**/*.test.tsx", "**/*.server.*"], visitFiles });
  return Object.fromEntries(Object.entries(table).sort(([a], [b]) => flatName(b).length - flatName(a).length));
}

/**
 * The name a route had as one flat file: `routes/api+/users+/count` → `routes/api.users.count`,
 * `routes/dashboard+/_layout` → `routes/dashboard`, and a pathless folder adds nothing
 * (`routes/_auth+/login` → `routes/login`, `routes/dashboard+/_staff+/leads` → `routes/dashboard.leads`).
 */
function flatName(id: string): string {
  return id
    .replace(/\+\/_layout$/, "")
    .replace(/^routes\/_[^/.]+\+\//, "routes/")
    .replace(/\/_[^/.]+\+\//g, "/")
    .replace(/\+\//g, ".");
}

/**
 * The files of app/routes in the order remix-flat-routes reads them (folder by folder, names in byte
 * order), as if nested pathless folders were not there: sibling routes are defined in this order, and
 * it decides between routes of equal flat-name length, so moving a screen into `_staff+/` changes no
 * order (decision 308).
 */
function visitFiles(dir: string, visitor: (file: string) => void) {
  const key = (file: string) => file.split(path.sep).filter((part, i) => i === 0 || !/^_[^.]+\+$/.test(part));
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => fs.statSync(path.join(dir, file)).isFile())
    .map((file) => ({ file, key: key(file) }));
  files.sort((a, b) => compareParts(a.key, b.key));
  for (const { file } of files) visitor(file);
}

function compareParts(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
}
