import net from "node:net";

// test:services needs real PostgreSQL and Redis: say what to start instead of skipping.
const checks = [
  [
    "DATABASE_URL",
    process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    5432,
    "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
  ],
  ["REDIS_URL", process.env.REDIS_URL ?? "redis://127.0.0.1:6379", 6379, 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no'],
];
let failed = false;
for (const [name, value, port, how] of checks) {
  if (!value) {
    console.error(`${name} is not set. Example: ${name}=${port === 5432 ? "postgres://postgres@127.0.0.1:5432/test" : "redis://127.0.0.1:6379"}`);
    failed = true;
    continue;
  }
  const url = new URL(value);
  const ok = await new Promise((resolve) => {
    const socket = net.connect(Number(url.port || port), url.hostname);
    socket.setTimeout(2000);
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => (socket.destroy(), resolve(false)));
  });
  if (!ok) {
    console.error(`${name} (${url.host}) does not answer. Start it with: ${how}`);
    failed = true;
  }
}
if (failed) process.exit(1);
