import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

/**
 * One name, one shape (decision 307): an exported type or interface name is declared in one file of
 * the product, so `Order`, `OrderRow`, `OrderLine` and `ListedOrderLine` each mean one thing.
 */
const root = path.resolve(import.meta.dirname, "../..");
const sources = ["app", "db", "server"].flatMap((dir) =>
  readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(dir, file)),
);
it("no exported type name is declared in two files", () => {
  const files = new Map<string, string[]>();
  for (const file of sources) {
    for (const [, name] of readFileSync(path.join(root, file), "utf8").matchAll(/^export (?:type|interface) ([A-Z]\w*)/gm)) {
      files.set(name!, [...(files.get(name!) ?? []), file]);
    }
  }
  const twice = [...files].filter(([, where]) => where.length > 1);
  expect(twice).toEqual([]);
  expect(files.get("OrderLine")).toEqual(["app/domain/order.ts"]);
  expect(files.get("ListedOrderLine")).toEqual(["app/models/orders-list.server.ts"]);
});
