/** The accounts tests' imports; the builders live in tests/requests.ts and tests/outbox.ts. */
export { formRequest, jsonRequest } from "./requests";
export { outboxFiles, readOutbox, waitForOutboxEmail, type OutboxEmail } from "./outbox";
