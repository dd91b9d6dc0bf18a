import { z } from "zod";

import { APPROVAL_MESSAGES } from "~/domain/approvals";
import { statusData } from "~/domain/schemas/api";
import { approvalSchema } from "~/domain/schemas/approvals";
import { getApprovalFor, setApproval } from "~/models/post-approvals.server";
import { apiRoute, uuidParam } from "~/web/api.server";

/*
 * GET /api/clients/:id/approval (staff; the client's owners may read), PUT (staff) {mode,
 * approvers, onDeadline, reviewHours}: how the client's posts are approved (decision 292). By the
 * client's id or any member's; a client never set has required, any, hold, 48.
 */

const params = z.object({ id: uuidParam(APPROVAL_MESSAGES.clientNotFound) });
const response = statusData(z.object({ approval: approvalSchema }));

export const loader = apiRoute(
  {
    method: "GET",
    auth: "any",
    params,
    response,
    summary: "A client's approval settings (staff, and the client's owners).",
  },
  async ({ user, params }) => ({ status: "success", data: { approval: await getApprovalFor(user, params.id) } }),
);

export const action = apiRoute(
  {
    method: "PUT",
    auth: "team",
    params,
    body: approvalSchema,
    response,
    summary: "Set a client's approval settings: mode none|required|two_step, approvers any|all, onDeadline hold|approve, reviewHours (staff).",
  },
  async ({ user, params, body }) => ({ status: "success", data: { approval: await setApproval(user, params.id, body) } }),
);
