import { createRequire } from "node:module";
import type * as Router from "@remix-run/router";
import { describe, expect, it } from "vitest";

/*
 * The server's route matching keeps its work per route tree (patches/@remix-run+router+*.patch and
 * patches/@remix-run+react+*.patch, decision 009): what it hands out must be what the unpatched code
 * would make, and a caller that changes what it got must not change the next answer.
 */
const require = createRequire(import.meta.url);
// The CommonJS builds are what the production server loads (and what the patches change).
const router = require("@remix-run/router") as typeof Router;
const remixRoutes = require("@remix-run/react/dist/routes.js") as {
  createServerRoutes: (manifest: Record<string, unknown>, modules: Record<string, unknown>, future: object, isSpaMode: boolean) => unknown[];
};

const tree = () => [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      { id: "users", path: "users", children: [{ id: "user", path: ":userId" }] },
      { id: "files", path: "files/*" },
    ],
  },
];

describe("matchRoutes", () => {
  it("answers a path like the first time, with matches of its own every time", () => {
    const routes = tree();
    const first = router.matchRoutes(routes, "/users/7")!;
    expect(first.map((match) => [match.route.id, match.pathname, match.pathnameBase])).toEqual([
      ["root", "/", "/"],
      ["users", "/users", "/users"],
      ["user", "/users/7", "/users/7"],
    ]);
    expect(first[0]!.params).toEqual({ userId: "7" });
    // Every match of one answer shares one params object, as React Router makes them.
    expect(first[0]!.params).toBe(first[2]!.params);

    (first[2]!.params as Record<string, string>).userId = "changed";
    first.push(first[0]!);
    const second = router.matchRoutes(routes, "/users/7")!;
    expect(second).toHaveLength(3);
    expect(second[2]!.params).toEqual({ userId: "7" });
    expect(second[2]).not.toBe(first[2]);
    expect(second[2]!.route).toBe(first[2]!.route);
  });

  it("tells paths apart: another id, a splat, an index, no route", () => {
    const routes = tree();
    expect(router.matchRoutes(routes, "/users/8")![2]!.params).toEqual({ userId: "8" });
    expect(router.matchRoutes(routes, "/files/a/b")![1]!.params).toEqual({ "*": "a/b" });
    expect(router.matchRoutes(routes, "/")!.map((match) => match.route.id)).toEqual(["root", "home"]);
    expect(router.matchRoutes(routes, "/nowhere")).toBeNull();
    expect(router.matchRoutes(routes, "/nowhere")).toBeNull();
  });

  it("matches a tree changed into a new array by the new tree", () => {
    const routes = tree();
    expect(router.matchRoutes(routes, "/users/7")).not.toBeNull();
    const other = [{ id: "root", path: "", children: [{ id: "users-list", path: "users/:userId" }] }];
    expect(router.matchRoutes(other, "/users/7")!.map((match) => match.route.id)).toEqual(["root", "users-list"]);
  });
});

type Manifest = Record<string, Router.AgnosticDataRouteObject | undefined>;

describe("convertRoutesToDataRoutes", () => {
  const convert = router.UNSAFE_convertRoutesToDataRoutes;
  const mapRouteProperties = () => ({ hasErrorBoundary: false });

  it("fills each caller's manifest, and gives the same routes for the same tree", () => {
    const routes = tree();
    const manifestA: Manifest = {};
    const manifestB: Manifest = {};
    const a = convert(routes, mapRouteProperties, undefined, manifestA);
    const b = convert(routes, mapRouteProperties, undefined, manifestB);
    expect(Object.keys(manifestA).sort()).toEqual(["files", "home", "root", "user", "users"]);
    expect(manifestB).toEqual(manifestA);
    expect(b).toBe(a);
    expect(manifestA.user).toBe(a[0]!.children![1]!.children![0]);
  });

  it("converts a tree with a lazy route every time (a lazy route is completed in place)", () => {
    // The router fills a lazy route in from what its function returns; nothing is loaded here.
    const routes = [{ id: "root", path: "", lazy: async () => ({}) }] as unknown as Router.AgnosticRouteObject[];
    const a = convert(routes, mapRouteProperties, undefined, {});
    const b = convert(routes, mapRouteProperties, undefined, {});
    expect(b).not.toBe(a);
  });
});

describe("createServerRoutes", () => {
  const manifest = {
    root: { id: "root", path: "", hasLoader: false },
    "routes/users": { id: "routes/users", parentId: "root", path: "users", hasLoader: true },
  };
  const Users = () => null;
  const Root = () => null;

  it("makes the tree once per manifest and its modules, and again when a module changes", () => {
    const modules = { root: { default: Root }, "routes/users": { default: Users } };
    const first = remixRoutes.createServerRoutes(manifest, modules, {}, false);
    expect(remixRoutes.createServerRoutes(manifest, { ...modules }, {}, false)).toBe(first);
    const Changed = () => null;
    const changed = remixRoutes.createServerRoutes(manifest, { ...modules, "routes/users": { default: Changed } }, {}, false);
    expect(changed).not.toBe(first);
    const users = (changed[0] as { children: { Component: unknown }[] }).children[0]!;
    expect(users.Component).toBe(Changed);
  });
});
