import { AUDIT_ACTION_KEYS, AUDIT_MAX_PAGE_SIZE, AUDIT_PAGE_SIZE } from "~/domain/audit";
import { z } from "~/domain/zod";

/* The audit log's filter (GET /api/audit and the staff page) and its entry as the API answers it. */

export const auditQuery = z.object({
  actorId: z.string({ error: "Staff member not found." }).uuid("Staff member not found.").optional(),
  action: z.enum(AUDIT_ACTION_KEYS, { error: `Action must be one of: ${AUDIT_ACTION_KEYS.join(", ")}.` }).optional(),
  page: z.coerce
    .number({ error: "Page must be a whole number." })
    .int("Page must be a whole number.")
    .min(1, "Page must be at least 1.")
    .max(1_000_000, "Page must be at most 1,000,000.")
    .default(1),
  limit: z.coerce
    .number({ error: "Limit must be a whole number." })
    .int("Limit must be a whole number.")
    .min(1, "Limit must be at least 1.")
    .max(AUDIT_MAX_PAGE_SIZE, `Limit must be at most ${AUDIT_MAX_PAGE_SIZE}.`)
    .default(AUDIT_PAGE_SIZE),
});
export type AuditQuery = z.infer<typeof auditQuery>;

const id = z.string().meta({ format: "uuid" });

export const auditEntryJson = z.object({
  _id: id,
  actor: z.object({ _id: id.nullable(), name: z.string() }).meta({ description: "The staff member, as named when they acted." }),
  action: z.enum(AUDIT_ACTION_KEYS),
  target: z.object({ kind: z.string(), _id: z.string(), label: z.string() }).meta({ description: "What was changed, as named at the time." }),
  detail: z.string().meta({ description: "One line saying what changed." }),
  createdAt: z.string().meta({ format: "date-time" }),
});
export type AuditEntryJson = z.infer<typeof auditEntryJson>;
