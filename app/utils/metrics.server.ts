import { remember } from "@epic-web/remember";
import { Counter, Gauge, register, type Metric } from "prom-client";

/*
 * The app's own series, in prom-client's global registry, which GET /metrics (server/metrics.ts)
 * serves and, under several workers, aggregates (decision 274). Each is made once per process:
 * a module evaluated again (a dev reload, a shared test worker) finds the one already registered.
 * Counting costs an increment; the gauges are read when a scrape asks for them.
 */

function once<T extends Metric>(name: string, make: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** Chat messages stored, by type (text or file). */
export const chatMessages = once("brandlift_chat_messages_total", () => {
  const counter = new Counter({ name: "brandlift_chat_messages_total", help: "Chat messages stored, by type", labelNames: ["type"] });
  counter.labels({ type: "text" }).inc(0);
  counter.labels({ type: "file" }).inc(0);
  return counter;
});

/** Where open sockets are counted: every Socket.IO server of this process (one in production). */
const socketCounts = remember("metrics.socket-counts", () => new Set<() => number>());

once(
  "brandlift_open_sockets",
  () =>
    new Gauge({
      name: "brandlift_open_sockets",
      help: "Socket.IO connections open on this node",
      collect() {
        let open = 0;
        for (const count of socketCounts) open += count();
        this.set(open);
      },
    }),
);

/** Counts a Socket.IO server's open connections from now until the returned function is called. */
export function countOpenSockets(count: () => number): () => void {
  socketCounts.add(count);
  return () => void socketCounts.delete(count);
}

// Webhook deliveries by result: registered with both results at zero, so dashboards and alerts
// can be written before the first delivery.
export const webhookDeliveries = once("brandlift_webhook_deliveries_total", () => {
  const counter = new Counter({ name: "brandlift_webhook_deliveries_total", help: "Webhook deliveries, by result", labelNames: ["result"] });
  counter.labels({ result: "delivered" }).inc(0);
  counter.labels({ result: "failed" }).inc(0);
  return counter;
});
