import crypto from "node:crypto";
import { z } from "zod";

import { receiveInboundEmail } from "~/models/inbound-email.server";
import { env } from "~/utils/env.server";
import { HttpError, methodNotAllowed, notFound } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";
import { BODY_LIMITS, readBytes } from "~/web/body-limit.server";

/*
 * POST /api/inbound/email — an e-mailed reply, raw (message/rfc822), from the mail provider with
 * `Authorization: Bearer $INBOUND_SECRET` (docs/integrations.md). 404 while INBOUND_SECRET is unset,
 * 401 for another secret; 202 when the reply was posted, or when its Message-ID already was.
 */

function authorized(request: Request, secret: string) {
  const given = Buffer.from(request.headers.get("Authorization") ?? "");
  const expected = Buffer.from(`Bearer ${secret}`);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    scope: null,
    rawBody: { contentType: "message/rfc822", schema: z.string().meta({ description: "The whole e-mail as received (RFC 5322)." }) },
    status: 202,
    errors: [401, 403, 404, 413, 415, 422, 429],
    response: z.object({ status: z.literal("success"), data: z.object({ posted: z.number().int(), duplicate: z.boolean() }) }),
    summary: "An e-mailed reply from the mail provider: it becomes a message from the member in their client's thread.",
  },
  async ({ request }) => {
    if (!env.inboundSecret) throw notFound();
    if (!authorized(request, env.inboundSecret)) throw new HttpError(401, "The inbound secret is missing or wrong.", "UNAUTHORIZED");
    const outcome = await receiveInboundEmail(Buffer.from(await readBytes(request, BODY_LIMITS.inboundEmailBytes)));
    return { status: "success", data: "duplicate" in outcome ? { posted: 0, duplicate: true } : { posted: outcome.posted, duplicate: false } };
  },
);

export const loader = methodNotAllowed;
