/**
 * The flags every server process is started with: `npm start`, the Dockerfile and the test and
 * bench servers (tests/support/server-process.ts, playwright.config.ts), so what is measured is what
 * runs. A young generation of 32 MiB semi-spaces: a page's short-lived objects (rows, React
 * elements, strings) die before the collector's next scavenge instead of being copied and promoted
 * while twenty requests are in flight; half the scavenges' time for a few tens of MiB of memory
 * (decision 324). At least 16 MiB of them stay after a quiet spell, which would otherwise shrink
 * them to 1 MiB and make the traffic after it pay a scavenge every second or so (decision 336).
 */
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=32", "--min-semi-space-size=16"];
