import { z } from "zod";

import { dateTimeField } from "~/domain/dates";
import { purchaseJson, successData } from "~/domain/schemas/api";
import { getPurchaseFor, toPurchaseJson, updatePurchase, WORK_STATUSES } from "~/models/purchases.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });
const ASSIGNEE_MESSAGE = "assigneeId must be a team member's id or null.";
const body = z
  .object({
    status: z.enum(WORK_STATUSES, { error: "Status must be in_progress or completed." }).optional(),
    assigneeId: z.string({ error: ASSIGNEE_MESSAGE }).uuid({ error: ASSIGNEE_MESSAGE }).nullable().optional(),
    dueAt: dateTimeField("dueAt").nullable().optional(),
  })
  .refine((b) => b.status !== undefined || b.assigneeId !== undefined || b.dueAt !== undefined, {
    error: "Nothing to change: give status, assigneeId or dueAt.",
  });

const response = successData(purchaseJson);

/** GET /api/services/purchases/:id: the owner or staff. Someone else's id answers 404. */
export const loader = apiRoute(
  { method: "GET", auth: "any", params, response, summary: "One purchase (the owner's or, for staff, any)." },
  async ({ user, params }) => {
    const purchase = await getPurchaseFor(user, params.id);
    return { success: true, data: toPurchaseJson(purchase) };
  },
);

/** PATCH /api/services/purchases/:id {status?, assigneeId?, dueAt?}: staff move paid work along, assign it and give it a due date. */
export const action = apiRoute(
  {
    method: "PATCH",
    auth: "team",
    params,
    body,
    errors: [409],
    response,
    summary: "Change paid work: status, assignee (a team member or null) and due date (or null).",
  },
  async ({ user, params, body }) => {
    const purchase = await updatePurchase(user, params.id, {
      status: body.status,
      assigneeId: body.assigneeId,
      dueAt: body.dueAt === undefined ? undefined : body.dueAt === null ? null : new Date(body.dueAt),
    });
    return { success: true, data: toPurchaseJson(purchase) };
  },
);
