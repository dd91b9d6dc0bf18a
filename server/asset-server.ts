import fs from "node:fs";
import type http from "node:http";
import path from "node:path";

import { acceptedEncodings } from "~/web/compression.server";

interface Asset {
  type: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The files of one build folder, held in memory with the brotli and gzip variants written at build
 * time (scripts/compress-assets.mjs), and served before Express: no middleware, no file system call
 * and no compression per request. The hashed assets (`build/client/assets`) get a year of immutable
 * caching; the public files beside them (favicon, robots.txt) an hour.
 */
export function createAssetServer(dir: string, { prefix = "/assets/", cacheControl = "public, max-age=31536000, immutable" } = {}) {
  const assets = new Map<string, Asset>();
  if (fs.existsSync(dir)) {
    for (const name of fs.readdirSync(dir)) {
      if (name.endsWith(".br") || name.endsWith(".gz")) continue;
      const file = path.join(dir, name);
      if (!fs.statSync(file).isFile()) continue;
      const read = (suffix: string) => (fs.existsSync(file + suffix) ? fs.readFileSync(file + suffix) : undefined);
      assets.set(prefix + name, {
        type: TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream",
        identity: fs.readFileSync(file),
        br: read(".br"),
        gzip: read(".gz"),
      });
    }
  }

  return {
    size: assets.size,
    /** Answers the request if it is for a known asset; false lets Express have it. */
    handle(req: http.IncomingMessage, res: http.ServerResponse): boolean {
      if ((req.method !== "GET" && req.method !== "HEAD") || !req.url?.startsWith(prefix)) return false;
      const query = req.url.indexOf("?");
      const asset = assets.get(query === -1 ? req.url : req.url.slice(0, query));
      if (!asset) return false;
      const accepts = asset.br || asset.gzip ? acceptedEncodings(req.headers["accept-encoding"]) : { br: false, gzip: false };
      const body = (accepts.br && asset.br) || (accepts.gzip && asset.gzip) || asset.identity;
      const headers: http.OutgoingHttpHeaders = {
        "Content-Type": asset.type,
        "Content-Length": body.length,
        "Cache-Control": cacheControl,
        "X-Content-Type-Options": "nosniff",
        "Cross-Origin-Resource-Policy": "same-origin",
      };
      if (asset.br || asset.gzip) headers.Vary = "Accept-Encoding";
      if (body !== asset.identity) headers["Content-Encoding"] = body === asset.br ? "br" : "gzip";
      res.writeHead(200, headers);
      res.end(req.method === "HEAD" ? undefined : body);
      return true;
    },
  };
}
