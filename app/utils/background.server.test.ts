import { afterEach, describe, expect, test, vi } from "vitest";

import { busyGate } from "./background.server";

describe("busyGate", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const settled = async (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    // Let resolved promises run their callbacks.
    for (let i = 0; i < 5; i++) await Promise.resolve();
    return done;
  };

  test("clear() resolves at once when nothing is in flight", async () => {
    expect(await settled(busyGate(50).clear())).toBe(true);
  });

  test("clear() waits until the last work in flight leaves", async () => {
    vi.useFakeTimers();
    const gate = busyGate(50);
    gate.enter();
    gate.enter();
    const waiting = gate.clear();
    expect(await settled(waiting)).toBe(false);
    gate.leave();
    expect(await settled(waiting)).toBe(false);
    gate.leave();
    expect(await settled(waiting)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("clear() gives up waiting after its limit, so a steady stream never starves the waiting work", async () => {
    vi.useFakeTimers();
    const gate = busyGate(50);
    gate.enter();
    const waiting = gate.clear();
    await vi.advanceTimersByTimeAsync(49);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    // A later leave() finds no one waiting; the gate is clear again.
    gate.leave();
    expect(await settled(gate.clear())).toBe(true);
  });
});
