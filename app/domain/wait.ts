/**
 * How long to wait, in words a person reads in a rate-limit message: "in 45 seconds",
 * "in 3 minutes", "in about an hour". Rounded up, so the advice is never too early.
 */
export function waitPhrase(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `in ${s} ${s === 1 ? "second" : "seconds"}`;
  const minutes = Math.ceil(s / 60);
  if (minutes < 50) return `in ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
  if (minutes <= 70) return "in about an hour";
  const hours = Math.ceil(minutes / 60);
  return `in about ${hours} hours`;
}

/** The 429 text of every form and API call: what happened and when to try again. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  return `Too many attempts. Please try again ${waitPhrase(retryAfterSeconds)}.`;
}
