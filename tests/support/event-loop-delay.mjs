// Preloaded into a server under test (NODE_OPTIONS=--import). On SIGUSR2 it prints, since the last
// SIGUSR2, as one "EVENT_LOOP_DELAY {json}" line on stdout (ms):
//  - max, p99, mean: how late the event loop ran (includes time the machine did not schedule us);
//  - busyMax: the most CPU the process used between two ticks of a 5 ms timer, i.e. the longest
//    the node itself kept its event loop busy. Unlike lateness, it does not grow when the machine
//    is loaded by others: a starved process uses no CPU while it waits.
import { monitorEventLoopDelay } from "node:perf_hooks";

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
let last = cpu();
let busyMax = 0;
setInterval(() => {
  const now = cpu();
  busyMax = Math.max(busyMax, now - last);
  last = now;
}, 5).unref();
process.on("SIGUSR2", () => {
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const figures = { max: ms(histogram.max), p99: ms(histogram.percentile(99)), mean: ms(histogram.mean), busyMax: Math.round(busyMax * 100) / 100 };
  process.stdout.write(`EVENT_LOOP_DELAY ${JSON.stringify(figures)}\n`);
  histogram.reset();
  busyMax = 0;
});
