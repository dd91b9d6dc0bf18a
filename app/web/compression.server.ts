import zlib from "node:zlib";

/**
 * Brotli for answers compressed while they are served (pages, JSON, streamed text): quality 4, as
 * compression() chooses, in a 256 KiB window. Brotli's default window is 4 MiB, and each answer's
 * encoder allocates and clears a buffer for it: for a 22 KB page that cost 1.0–1.5 ms of CPU, against
 * 0.4 ms in the small window, for the same bytes out (a window larger than the answer finds nothing
 * more). Answers longer than the window still compress, a little less (decision 318). Files built
 * ahead (assets, the landing page) are compressed once, at quality 11, and keep the default window.
 */
export const BROTLI_PER_REQUEST: zlib.BrotliOptions = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 },
};

/** Bodies shorter than this go out as they are, as compression() does it (its default threshold). */
export const COMPRESSION_THRESHOLD = 1024;

/**
 * Whether the client takes br and gzip (RFC 9110 Accept-Encoding, q=0 refuses). Identity otherwise.
 * Identity is always acceptable. A tiny parser on purpose: it runs on every asset request, before Express.
 */
export function acceptedEncodings(header: string | null | undefined): { br: boolean; gzip: boolean } {
  if (!header) return { br: false, gzip: false };
  // Each coding: true when named and taken, false when named and refused; "*" speaks for the others.
  let br: boolean | undefined;
  let gzip: boolean | undefined;
  let any = false;
  for (const part of header.split(",")) {
    const [rawName, ...params] = part.split(";");
    const name = rawName!.trim().toLowerCase();
    const taken = !params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p));
    if (name === "br") br = taken;
    else if (name === "gzip" || name === "x-gzip") gzip = gzip === true || taken;
    else if (name === "*") any = taken;
  }
  return { br: br ?? any, gzip: gzip ?? any };
}

/** The encoding a whole answer goes out in: brotli if taken, else gzip, else none. */
export function preferredEncoding(header: string | null | undefined): "br" | "gzip" | null {
  const accepts = acceptedEncodings(header);
  return accepts.br ? "br" : accepts.gzip ? "gzip" : null;
}

/** Above this, a whole body is compressed off the event loop; below, in one synchronous call. */
const SYNC_LIMIT = 256 * 1024;

/**
 * A whole body compressed in one call, as compression() would encode it (brotli as above, gzip at its
 * default level). A page is small and already whole: one synchronous call costs about a third of
 * the CPU of a compression stream fed in pieces, whose every piece is a trip to the thread pool and
 * back (decision 322). Long bodies go to the thread pool in one piece.
 */
export function compressWhole(body: Buffer, encoding: "br" | "gzip"): Buffer | Promise<Buffer> {
  if (body.length <= SYNC_LIMIT) return encoding === "br" ? zlib.brotliCompressSync(body, BROTLI_PER_REQUEST) : zlib.gzipSync(body);
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, out: Buffer) => (error ? reject(error) : resolve(out));
    if (encoding === "br") zlib.brotliCompress(body, BROTLI_PER_REQUEST, done);
    else zlib.gzip(body, done);
  });
}
