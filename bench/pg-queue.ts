import path from "node:path";
import { pathToFileURL } from "node:url";

import { writeResult } from "./support";

/**
 * The postgres driver's pool queue under steady load: a queue that never empties, where each step
 * takes the head, puts it back and removes one held item by identity (what the pool does with its
 * busy connections). Prints the cost of a step as the run goes on, for the queue as published
 * (3.4.9, kept here as it was) and as installed (patches/postgres+3.4.9.patch). Decision 251.
 */

type Queue<T> = { readonly length: number; push(x: T): T; shift(): T | undefined; remove(x: T): T | null };

/** postgres 3.4.9 src/queue.js as published. */
function Published<T>(initial: T[] = []): Queue<T> {
  let xs: (T | undefined)[] = initial.slice();
  let index = 0;
  return {
    get length() {
      return xs.length - index;
    },
    remove: (x) => {
      const at = xs.indexOf(x);
      return at === -1 ? null : (xs.splice(at, 1), x);
    },
    push: (x) => (xs.push(x), x),
    shift: () => {
      const out = xs[index++];
      if (index === xs.length) {
        index = 0;
        xs = [];
      } else xs[index - 1] = undefined;
      return out;
    },
  };
}

const installed = ((await import(pathToFileURL(path.resolve("node_modules/postgres/src/queue.js")).href)) as { default: <T>(initial?: T[]) => Queue<T> })
  .default;

const CHECKPOINTS = [10_000, 50_000, 100_000, 200_000];

function run(make: <T>(initial?: T[]) => Queue<T>) {
  const connections = Array.from({ length: 10 }, (_, i) => ({ id: i }));
  const queue = make(connections);
  const figures: Record<string, number> = {};
  let done = 0;
  for (const checkpoint of CHECKPOINTS) {
    const started = process.hrtime.bigint();
    for (; done < checkpoint; done++) {
      const head = queue.shift()!;
      queue.push(head);
      const held = connections[done % connections.length]!;
      queue.remove(held);
      queue.push(held);
    }
    const steps = checkpoint - (CHECKPOINTS[CHECKPOINTS.indexOf(checkpoint) - 1] ?? 0);
    figures[`µs a step, steps up to ${checkpoint.toLocaleString("en")}`] = Number((Number(process.hrtime.bigint() - started) / 1000 / steps).toFixed(3));
  }
  return figures;
}

const rows = { published: run(Published), installed: run(installed) };
console.table(rows);
writeResult("pg-queue", rows);
