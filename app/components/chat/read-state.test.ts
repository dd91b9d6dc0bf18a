import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";

import type { ClientSocket } from "~/realtime/use-socket";

import { CHAT_READ_EVENT, markThreadRead } from "./read-state";

const customerId = "11111111-1111-4111-8111-111111111111";
const messageId = "22222222-2222-4222-8222-222222222222";

type Ack = (result: { ok: boolean }) => void;

/** A connected socket whose `read` answers are held: the test decides if and when they come. */
function heldSocket() {
  const acks: Ack[] = [];
  const emitted: unknown[] = [];
  const socket = {
    connected: true,
    emit: (event: string, payload: unknown, ack: Ack) => {
      emitted.push({ event, payload });
      acks.push(ack);
    },
  };
  return { socket: socket as unknown as ClientSocket, acks, emitted };
}

let fetches: { url: string; init: RequestInit }[];
let readEvents: string[];

beforeEach(() => {
  vi.useFakeTimers();
  fetches = [];
  readEvents = [];
  const page = new EventTarget();
  page.addEventListener(CHAT_READ_EVENT, (event) => readEvents.push((event as CustomEvent<{ customerId: string }>).detail.customerId));
  vi.stubGlobal("window", page);
  vi.stubGlobal("document", { visibilityState: "visible" });
  vi.stubGlobal("fetch", (url: string, init: RequestInit) => {
    fetches.push({ url, init });
    return Promise.resolve(new Response(null, { status: 204 }));
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("a read receipt on the socket", () => {
  test("answered: the badges hear of it and nothing goes over HTTP", async () => {
    const { socket, acks, emitted } = heldSocket();
    markThreadRead(customerId, messageId, socket);
    await vi.advanceTimersByTimeAsync(400);
    expect(emitted).toEqual([{ event: "read", payload: { roomId: `support-${customerId}`, messageId } }]);
    acks[0]!({ ok: true });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetches).toEqual([]);
    expect(readEvents).toEqual([customerId]);
  });

  test("never answered: after 3 s it goes over HTTP, once, and a late answer changes nothing", async () => {
    const { socket, acks } = heldSocket();
    markThreadRead(customerId, messageId, socket);
    await vi.advanceTimersByTimeAsync(400 + 2_999);
    expect(fetches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetches.map((f) => [f.url, f.init.method, f.init.body])).toEqual([
      ["/api/chat/read", "POST", JSON.stringify({ userId: customerId, lastMessageId: messageId })],
    ]);
    expect(readEvents).toEqual([customerId]);
    acks[0]!({ ok: true });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetches).toHaveLength(1);
    expect(readEvents).toEqual([customerId]);
  });

  test("refused by the server: it goes over HTTP at once", async () => {
    const { socket, acks } = heldSocket();
    markThreadRead(customerId, messageId, socket);
    await vi.advanceTimersByTimeAsync(400);
    acks[0]!({ ok: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetches.map((f) => f.url)).toEqual(["/api/chat/read"]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetches).toHaveLength(1);
  });

  test("a burst of receipts becomes one, for the newest message", async () => {
    const { socket, emitted } = heldSocket();
    markThreadRead(customerId, "33333333-3333-4333-8333-333333333333", socket);
    await vi.advanceTimersByTimeAsync(200);
    markThreadRead(customerId, messageId, socket);
    await vi.advanceTimersByTimeAsync(400);
    expect(emitted).toEqual([{ event: "read", payload: { roomId: `support-${customerId}`, messageId } }]);
  });
});
