// Preloaded into a server under test (NODE_OPTIONS=--import). On SIGUSR2 it prints, since the last
// SIGUSR2, as one "EVENT_LOOP_DELAY {json}" line on stdout (ms):
//  - max, p99, mean: how late the event loop ran (includes time the machine did not schedule us);
//  - busyMax: the longest the node itself kept its event loop busy between two ticks of a 5 ms timer:
//    the smaller of the CPU the process used and the time the loop spent running callbacks (its
//    event-loop utilization's active time). Each alone overstates it: the process's CPU includes its
//    other threads (the garbage collector's helpers, the thread pool), so under eight streaming
//    bodies it reached 119 ms between ticks of a loop never more than 62 ms late; the loop's active
//    time includes stretches the machine did not schedule us. A starved process uses no CPU, and a
//    loop waiting for I/O is not active, so neither grows with the machine's other load.
import { monitorEventLoopDelay, performance } from "node:perf_hooks";

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
const cpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
let last = cpu();
let lastLoop = performance.eventLoopUtilization();
let busyMax = 0;
setInterval(() => {
  const now = cpu();
  const loop = performance.eventLoopUtilization();
  busyMax = Math.max(busyMax, Math.min(now - last, loop.active - lastLoop.active));
  last = now;
  lastLoop = loop;
}, 5).unref();
process.on("SIGUSR2", () => {
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const figures = { max: ms(histogram.max), p99: ms(histogram.percentile(99)), mean: ms(histogram.mean), busyMax: Math.round(busyMax * 100) / 100 };
  process.stdout.write(`EVENT_LOOP_DELAY ${JSON.stringify(figures)}\n`);
  histogram.reset();
  busyMax = 0;
});
