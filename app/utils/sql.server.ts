/** Small rules every model shares when it talks to PostgreSQL. */

/** LIKE patterns treat % and _ as wildcards; a search for "a_b" means the literal text. */
export function likePattern(search: string) {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A unique index refused a row (SQLSTATE 23505), optionally a named one. Drivers wrap the error
 * (drizzle's query error holds postgres.js's or PGlite's as `cause`), so the chain is walked.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let current = error;
  for (let depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const { code, constraint_name, constraint: name, message } = current as Record<string, unknown>;
    if (code === "23505" && (!constraint || constraint_name === constraint || name === constraint || String(message ?? "").includes(constraint))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
