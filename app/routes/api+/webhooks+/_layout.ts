import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { WebhookCreateSchema, webhookJson } from "~/domain/webhooks";
import { createWebhook, listWebhooks, toWebhookJson } from "~/models/webhooks.server";
import { apiRoute } from "~/web/api.server";

/* GET /api/webhooks, POST /api/webhooks {url, events} — the team's webhooks (docs/integrations.md); the secret is answered once. */

export const loader = apiRoute(
  { method: "GET", auth: "team", response: statusData(z.object({ webhooks: webhookJson.array() })), summary: "The webhooks events are sent to, newest first." },
  async () => ({ status: "success", data: { webhooks: (await listWebhooks()).map(toWebhookJson) } }),
);

export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    body: WebhookCreateSchema,
    status: 201,
    response: statusData(z.object({ webhook: webhookJson, secret: z.string() })),
    summary: "Add a webhook: events are POSTed to its address, signed with the secret answered here once.",
  },
  async ({ user, body }) => {
    const { webhook, secret } = await createWebhook(user, body);
    return { status: "success", data: { webhook: toWebhookJson(webhook), secret } };
  },
);
