import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, test } from "vitest";

/*
 * The postgres driver's internal queue (its pool's connection and query queues), as patched in
 * patches/postgres+3.4.9.patch: spent slots are dropped as the queue moves, so a queue that never
 * empties under steady load stays the size of what it holds (docs/decisions/251). Checked against a
 * plain array, operation by operation, long enough for the queue to drop its spent slots many times.
 */

type Queue<T> = { readonly length: number; push(x: T): T; shift(): T | undefined; remove(x: T): T | null };

async function load(file: string): Promise<<T>(initial?: T[]) => Queue<T>> {
  const module = (await import(pathToFileURL(path.resolve("node_modules/postgres", file)).href)) as { default: <T>(initial?: T[]) => Queue<T> };
  return module.default;
}

/** A small seeded generator: the same operations on every run. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe.each(["src/queue.js", "cjs/src/queue.js"])("the driver's queue (%s)", (file) => {
  test("behaves as a plain first-in first-out list with removal, through 200,000 operations on a queue that never empties", async () => {
    const Queue = await load(file);
    const queue = Queue<number>();
    const model: number[] = [];
    const next = random(7);
    let id = 0;
    for (let i = 0; i < 5; i++) model.push(queue.push(id++));
    // Compared by hand, the first difference kept: an expect() per step would cost more than the queue.
    let difference: string | null = null;
    for (let step = 0; step < 200_000 && difference === null; step++) {
      const roll = next();
      if (roll < 0.45) model.push(queue.push(id++));
      else if (roll < 0.9 && model.length > 3) {
        const [got, want] = [queue.shift(), model.shift()];
        if (got !== want) difference = `step ${step}: shift gave ${got}, not ${want}`;
      } else if (model.length > 3) {
        const target = next() < 0.8 ? model[Math.floor(next() * model.length)]! : -1;
        const at = model.indexOf(target);
        if (at !== -1) model.splice(at, 1);
        const got = queue.remove(target);
        if (got !== (at === -1 ? null : target)) difference = `step ${step}: remove(${target}) gave ${got}`;
      }
      if (difference === null && queue.length !== model.length) difference = `step ${step}: length ${queue.length}, not ${model.length}`;
    }
    expect(difference).toBeNull();
    while (model.length > 0) expect(queue.shift()).toBe(model.shift());
    expect(queue.length).toBe(0);
    queue.push(1);
    expect(queue.shift()).toBe(1);
  });

  test("keeps what it was made with, and removes an item once", async () => {
    const Queue = await load(file);
    const queue = Queue(["a", "b", "c"]);
    expect(queue.remove("b")).toBe("b");
    expect(queue.remove("b")).toBeNull();
    expect([queue.shift(), queue.shift(), queue.length]).toEqual(["a", "c", 0]);
  });
});
