import { can, memberCan, type Actor } from "./permissions";
import { line, z } from "./zod";

/*
 * API keys (docs/decisions/284 and 285): what a key may do is the intersection of its scopes and
 * its person's rights. The scopes, what each one opens and who may hold it are listed here only.
 */

export const SCOPES = ["read", "posts:write", "orders:read", "messages:write"] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_LABELS: Record<Scope, string> = {
  read: "Read what you can see (every GET call)",
  "posts:write": "Mark posts published (staff)",
  "orders:read": "Read orders and revenue (staff)",
  "messages:write": "Send chat messages",
};

/** Whether this person may hold the scope: never wider than what they may do themselves. */
export function mayHoldScope(actor: Actor, scope: Scope): boolean {
  switch (scope) {
    case "read":
      return true;
    case "posts:write":
    case "orders:read":
      return can(actor, "area:team");
    case "messages:write":
      return can(actor, "area:team") || memberCan(actor, "chat");
  }
}

/** Every key starts with this, so a bearer secret that is a key is found with one indexed look-up. */
export const API_KEY_PREFIX = "blk_";
/** How many of its first characters a key is shown by (the prefix included). */
export const API_KEY_SHOWN_CHARS = 8;
export const API_KEY_NAME_MAX = 100;
/** Keys one person may hold at a time. */
export const API_KEYS_PER_USER = 25;
/** Calls a minute per key (429 past it). */
export const API_KEY_CALLS_PER_MINUTE = 600;

export const API_KEY_MESSAGES = {
  scopeNotHeld: (scope: Scope) => `Your account cannot grant the "${scope}" scope.`,
  keyRefused: "An API key cannot make this call: sign in instead.",
  scopeMissing: (scope: Scope) => `This API key lacks the "${scope}" scope this call needs.`,
  tooMany: `You already have ${API_KEYS_PER_USER} API keys: revoke one first.`,
  notFound: "API key not found.",
} as const;

export const apiKeyCreateSchema = z.object({
  name: line(
    z
      .string({ error: "Give the key a name." })
      .trim()
      .min(1, "Give the key a name.")
      .max(API_KEY_NAME_MAX, `A key's name is at most ${API_KEY_NAME_MAX} characters.`),
    "The key's name",
  ),
  scopes: z
    .array(z.enum(SCOPES, { error: `Scopes are among: ${SCOPES.join(", ")}.` }), { error: "Choose at least one scope." })
    .min(1, "Choose at least one scope.")
    .transform((scopes) => [...new Set(scopes)]),
});
