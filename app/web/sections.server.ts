import { SECTION_FAILED, sectionOk, type Section } from "~/domain/section";
import { logger } from "~/utils/logger.server";
import { answerNotReusable } from "~/utils/request-context.server";

/**
 * Reads one section's data. A thrown Response (a redirect, a 404) still ends the request; any
 * other failure is logged and becomes `{ ok: false }`, so the page renders around it.
 */
export async function loadSection<T>(name: string, load: () => Promise<T>): Promise<Section<T>> {
  try {
    return sectionOk(await load());
  } catch (error) {
    if (error instanceof Response) throw error;
    logger.error({ err: error, section: name }, "a page section failed to load");
    // The next request, and the section's Retry, must read again.
    answerNotReusable();
    return SECTION_FAILED;
  }
}

/** Sections that failed: the page must not be cached (the landing page's cache, a CDN). */
export function sectionHeaders(...sections: Section<unknown>[]): HeadersInit | undefined {
  return sections.some((s) => !s.ok) ? { "Cache-Control": "no-store" } : undefined;
}
