/*
 * Which statements change data, read off their text and, where the text cannot tell, their result.
 * The app's rendered-page reuse (server/page-cache.ts) is only as good as this: a statement that
 * changed rows and is not reported here would leave pages showing the rows as they were. So every
 * doubt counts as a write, and only two things count as "changed nothing": a statement that can
 * only read, and a plain INSERT, UPDATE or DELETE that touched no row.
 */

/** How a statement's text is judged: "read" never changes data; "counted" changed data when its row count is over 0; "write" always counts. */
export type StatementKind = "read" | "counted" | "write";

/** Words that change data or state wherever they stand (a data-modifying CTE inside a SELECT, nextval). */
const CHANGING_WORD =
  /\b(insert|update|delete|merge|truncate|nextval|setval|copy|call|do|create|alter|drop|refresh|grant|revoke|comment|vacuum|reindex|cluster|lock|notify|import)\b/gi;
/** Quoted names and string literals (a column called "comment", a status 'update') say nothing of what a statement does. */
const QUOTED = /"(?:[^"]|"")*"|'(?:[^']|'')*'/g;
/** Row locks and upsert branches name "update" or "do" without being a statement of their own. */
const NOT_A_STATEMENT = /\bfor\s+(no\s+key\s+)?update\b|\bfor\s+(key\s+)?share\b|\bdo\s+(update|nothing)\b/gi;
/** Statements that only steer a session or a transaction. */
const SESSION_ONLY = /^\s*(begin|start\s+transaction|commit|end|rollback|savepoint|release|set|show|reset|listen|unlisten|discard|deallocate)\b/i;
const READING = /^\s*(select|with|values|table)\b/i;
/** A plain INSERT, UPDATE or DELETE, or one after a WITH list of reads: its row count is its final statement's. */
const COUNTED = /^\s*(insert|update|delete)\b|^\s*with\b[\s\S]*\)\s*(insert|update|delete)\b/i;

const kinds = new Map<string, StatementKind>();
/** Texts are few (the query builder's shapes); a stream of new ones is judged each time, not kept. */
const KINDS_MAX = 2_000;

export function statementKind(text: string): StatementKind {
  const known = kinds.get(text);
  if (known) return known;
  const kind = judge(text);
  if (kinds.size < KINDS_MAX) kinds.set(text, kind);
  return kind;
}

function judge(text: string): StatementKind {
  const bare = text.replace(QUOTED, " ").replace(NOT_A_STATEMENT, " ");
  // Several statements in one text (a trailing semicolon is still one).
  if (/;\s*\S/.test(bare)) return "write";
  const words = bare.match(CHANGING_WORD)?.length ?? 0;
  if (words === 0) return SESSION_ONLY.test(bare) || READING.test(bare) ? "read" : "write";
  // One statement that changes rows, and nothing else in its text that could: its row count tells.
  return words === 1 && COUNTED.test(bare) ? "counted" : "write";
}

/** Whether a statement of this kind, with this many rows affected (undefined: unknown), changed data. */
export function changedData(kind: StatementKind, rowsAffected: number | null | undefined): boolean {
  if (kind === "read") return false;
  if (kind === "counted") return rowsAffected === undefined || rowsAffected === null || rowsAffected > 0;
  return true;
}
