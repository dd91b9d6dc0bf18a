/*
 * The import layering as path-based zones (docs/routing.md: The layout). Every import is resolved to a
 * file of the repository first, whichever way it is written (`~/…`, `#db/…`, `./…`, `../../app/…`), and
 * then checked against the zone of the importing file. A zone says which folders a folder never imports.
 */
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Where each alias of tsconfig/vite points, relative to the repository root. */
const ALIASES = [
  ["~/", "app/"],
  ["#db/", "db/"],
];

const UI = ["app/components/", "app/routes/"];
const NOT_APP = ["tests/", "bench/", "scripts/", "server/"];

/**
 * `files`: the importing files (a folder prefix); `never`: folders they must not import;
 * `server`: true when *.server files are refused too (they would ship to the browser).
 * The first zone whose prefix matches a file decides.
 */
export const ZONES = [
  {
    files: "app/domain/",
    never: ["app/", "db/", ...NOT_APP],
    except: ["app/domain/"],
    server: true,
    why: "app/domain imports nothing of the app: it is the floor everything stands on.",
  },
  {
    files: "app/utils/db.server.ts",
    never: ["app/models/", "app/web/", "app/realtime/", ...UI, ...NOT_APP],
    why: "app/utils is infrastructure: it never imports models, web, components, routes or realtime.",
  },
  {
    files: "app/utils/",
    never: ["app/models/", "app/web/", "app/realtime/", ...UI, "db/", ...NOT_APP],
    why: "app/utils is infrastructure: it never imports models, web, components, routes or realtime; db/ is reached through app/utils/db.server.ts alone.",
  },
  {
    files: "app/models/",
    never: ["app/web/", "app/realtime/", ...UI, "db/", ...NOT_APP],
    why: "Models never import components, routes, realtime or web (move the shared rule to app/domain); the database is reached through app/utils/db.server.ts.",
  },
  {
    files: "app/web/",
    never: ["app/realtime/", ...UI, "db/", ...NOT_APP],
    why: "app/web (the request layer) sits under routes, components and realtime; reach the database through app/models.",
  },
  { files: "app/realtime/", never: [...UI, "db/", ...NOT_APP], why: "app/realtime sits under routes and components; reach the database through app/models." },
  {
    files: "app/components/",
    never: ["app/models/", "app/web/", "app/routes/", "app/utils/", "db/", ...NOT_APP],
    server: true,
    why: "Components are views: data comes from loaders; shared rules from app/domain.",
  },
  { files: "app/routes/", never: ["db/", ...NOT_APP], why: "Routes reach the database through app/models." },
  { files: "app/", never: ["db/", ...NOT_APP], why: "The app reaches db/ only through app/utils/db.server.ts and never imports tests, benches or scripts." },
  {
    files: "db/",
    never: ["app/", ...NOT_APP],
    except: ["app/domain/", "app/utils/env.server"],
    why: "db/ holds tables and migrations: it may use app/domain's shapes and the validated settings, nothing else of the app.",
  },
  {
    files: "server/",
    never: [...UI, "app/realtime/", "db/", "tests/", "bench/", "scripts/"],
    why: "server/ is the Node process around the app (fast paths, cluster, process policy): it stands on app/web, models and utils, never on screens, sockets or the database directly.",
  },
  { files: "bench/", never: UI, why: "Benches drive the product from outside (HTTP, sockets) or call models; never screens." },
  { files: "scripts/", never: [...UI, "app/realtime/", "bench/"], why: "Scripts run beside the product: no screens, no sockets, no benches." },
];

function resolveImport(source, filename) {
  for (const [alias, target] of ALIASES) {
    if (source.startsWith(alias)) return target + source.slice(alias.length);
  }
  if (source.startsWith("./") || source.startsWith("../")) {
    const absolute = path.resolve(path.dirname(filename), source);
    return path.relative(ROOT, absolute).split(path.sep).join("/");
  }
  return null; // a package
}

/** The zone that refuses `target` (a repository path) when imported from `file`, or null. */
export function refusal(file, target) {
  const zone = ZONES.find((z) => file.startsWith(z.files));
  if (!zone || !target || target.startsWith("..")) return null;
  const excepted = (zone.except ?? []).some((prefix) => target.startsWith(prefix));
  if (zone.server && /\.server(\.|$)/.test(target)) return zone;
  if (!excepted && zone.never.some((prefix) => target.startsWith(prefix))) return zone;
  return null;
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Imports run one way (path-based zones, whatever the import's spelling)." },
    schema: [],
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join("/");
    if (/\.test\.tsx?$/.test(file)) return {};
    const check = (node) => {
      if (!node.source || typeof node.source.value !== "string") return;
      const target = resolveImport(node.source.value, context.filename);
      const zone = refusal(file, target);
      if (zone) context.report({ node: node.source, message: `${zone.why} (${file} imports ${target})` });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default { rules: { layers: rule } };
