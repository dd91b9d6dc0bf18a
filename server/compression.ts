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
