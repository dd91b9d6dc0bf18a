import { HttpError } from "~/utils/http.server";

/**
 * A form action's step that may be refused with an HttpError (a spent rate limit, a refused upload,
 * a missing purchase): runs it and hands the error to `reply`, which answers the form with the
 * error's message where the form shows it. Null when the step went through; other errors propagate.
 *
 *   const refused = await replyOnHttpError(() => consume(limits.contact, key), (error) =>
 *     data({ result: submission.reply({ formErrors: [error.message] }) }, httpErrorInit(error)));
 *   if (refused) return refused;
 */
export async function replyOnHttpError<R>(step: () => Promise<unknown>, reply: (error: HttpError) => R): Promise<R | null> {
  try {
    await step();
    return null;
  } catch (error) {
    if (error instanceof HttpError) return reply(error);
    throw error;
  }
}

/** The status and headers (Retry-After …) of an HttpError, for `data(body, init)`. */
export const httpErrorInit = (error: HttpError) => ({ status: error.status, headers: error.headers });
