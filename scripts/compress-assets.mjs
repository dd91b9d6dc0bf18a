import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

// After `remix vite:build`: every hashed text asset gets a .br (quality 11) and a .gz (level 9)
// beside it, so the server never compresses an asset per request.
const dir = path.resolve(process.env.BUILD_DIR ?? "build", "client/assets");
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html|map)$/;
let files = 0;
let before = 0;
let afterBr = 0;
for (const name of fs.readdirSync(dir)) {
  if (!COMPRESSIBLE.test(name)) continue;
  const file = path.join(dir, name);
  const body = fs.readFileSync(file);
  const br = zlib.brotliCompressSync(body, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  });
  const gz = zlib.gzipSync(body, { level: 9 });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  files++;
  before += body.length;
  afterBr += br.length;
}
console.log(`precompressed ${files} assets: ${(before / 1024).toFixed(0)} KiB → ${(afterBr / 1024).toFixed(0)} KiB brotli`);
