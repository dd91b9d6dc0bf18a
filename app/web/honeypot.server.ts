import { HONEYPOT_FIELD } from "~/domain/honeypot";
import { HttpError } from "~/utils/http.server";

export const HONEYPOT_MESSAGE = "Form not submitted properly.";

/** True when the hidden field came back filled in: a bot, not a person. */
export function isHoneypotFilled(form: FormData | URLSearchParams | Record<string, unknown>): boolean {
  const value = form instanceof FormData || form instanceof URLSearchParams ? form.get(HONEYPOT_FIELD) : form[HONEYPOT_FIELD];
  return typeof value === "string" ? value.trim() !== "" : value != null;
}

/**
 * Refuses a bot's submission with a 400 and nothing saved. Page actions get a Response (the
 * route's error boundary shows it); API handlers pass `{ api: true }` for the JSON error shape.
 */
export function checkHoneypot(form: FormData | URLSearchParams | Record<string, unknown>, options: { api?: boolean } = {}) {
  if (!isHoneypotFilled(form)) return;
  if (options.api) throw new HttpError(400, HONEYPOT_MESSAGE, "HONEYPOT");
  throw new Response(HONEYPOT_MESSAGE, { status: 400, headers: { "Cache-Control": "no-store" } });
}
