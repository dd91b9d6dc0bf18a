// A bare node:http server that answers every request with one file's bytes and headers: the yardstick
// of bench/landing-throughput.ts. Usage: node bench/bare-server.mjs BODY_FILE HEADERS_JSON_FILE
import fs from "node:fs";
import http from "node:http";

const body = fs.readFileSync(process.argv[2]);
const headers = { ...JSON.parse(fs.readFileSync(process.argv[3], "utf8")), "content-length": body.length };
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, "127.0.0.1", () => console.log(`PORT ${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
