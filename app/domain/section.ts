/**
 * One section of a page (the a-la-carte picker, the overview cards, a plan list) whose data is
 * read on its own: a failed read leaves the rest of the page standing and shows the section's
 * own error text with a Retry.
 */
export type Section<T> = { ok: true; data: T } | { ok: false };

export const sectionOk = <T>(data: T): Section<T> => ({ ok: true, data });
export const SECTION_FAILED: Section<never> = { ok: false };
