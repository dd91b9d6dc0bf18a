import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { webhookJson, WebhookUpdateSchema } from "~/domain/webhooks";
import { deleteWebhook, toWebhookJson, updateWebhook } from "~/models/webhooks.server";
import { methodNotAllowed, notFound } from "~/utils/http.server";
import { apiMethods, apiRoute, uuidParam } from "~/web/api.server";

/* PATCH /api/webhooks/:id {url?, events?, active?}, DELETE /api/webhooks/:id (team). */

const params = z.object({ id: uuidParam("No such webhook.") });

const patch = apiRoute(
  {
    method: "PATCH",
    auth: "team",
    params,
    body: WebhookUpdateSchema,
    errors: [404],
    response: statusData(z.object({ webhook: webhookJson })),
    summary: "Change a webhook's address or events, or turn it on or off.",
  },
  async ({ user, params, body }) => {
    const webhook = await updateWebhook(user, params.id, body);
    if (!webhook) throw notFound("No such webhook.");
    return { status: "success", data: { webhook: toWebhookJson(webhook) } };
  },
);

const remove = apiRoute(
  {
    method: "DELETE",
    auth: "team",
    params,
    errors: [404],
    response: z.object({ status: z.literal("success") }),
    summary: "Delete a webhook and its delivery log.",
  },
  async ({ user, params }) => {
    if (!(await deleteWebhook(user, params.id))) throw notFound("No such webhook.");
    return { status: "success" };
  },
);

export const action = apiMethods(patch, remove);
export const loader = methodNotAllowed;
