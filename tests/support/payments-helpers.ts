import { readOutbox } from "./outbox";
import { uniqueEmail as makeUniqueEmail } from "./requests";

/*
 * Helpers for the storefront and payments tests. App modules are imported lazily, so a test file
 * can set STRIPE_* settings first (env.server.ts reads them once, at import). Requests and the
 * outbox come from tests/support/requests.ts and tests/outbox.ts; freshContext gives every call its own
 * client address, so the order and contact limits never couple unrelated tests.
 */

export { CONTEXT, formRequest, freshContext, jsonRequest } from "./requests";
export { decodeEmail } from "./outbox";

export async function seedServices() {
  const [{ seedCatalogue }, { db }, { listActiveServices }] = await Promise.all([
    import("#db/seed"),
    import("~/utils/db.server"),
    import("~/models/services.server"),
  ]);
  await seedCatalogue(db);
  return listActiveServices();
}

export const uniqueEmail = (prefix = "buyer") => makeUniqueEmail(prefix);

/** The raw .eml files the outbox holds for this recipient, oldest first. */
export const emailsTo = (email: string): string[] => readOutbox(email).map((mail) => mail.raw);
