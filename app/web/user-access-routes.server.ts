import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { staffJson } from "~/domain/schemas/ops";
import { setAccountDisabled, toMemberJson } from "~/models/team.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string().max(64) });

const SUMMARIES = {
  disable: "Disables an account (staff or customer): its sessions, API tokens and sockets end at once; it cannot sign in.",
  enable: "Enables an account (staff or customer): it can sign in again. A deleted customer account cannot be (409).",
};

/**
 * POST /api/users/:id/disable and /api/users/:id/enable (staff): one route, the two differing in the
 * state they set. Disabling ends the account's sessions, API tokens and sockets at once; enabling
 * lets it sign in again, except a customer account deleted at its owner's request (409).
 */
export function userAccessRoute(access: keyof typeof SUMMARIES) {
  const disabled = access === "disable";
  return apiRoute(
    {
      method: "POST",
      auth: "team",
      params,
      response: statusData(z.object({ user: staffJson })),
      ...(disabled ? {} : { errors: [409] }),
      summary: SUMMARIES[access],
    },
    async ({ params, user }) => ({ status: "success", data: { user: toMemberJson(await setAccountDisabled(user.id, params.id, disabled)) } }),
  );
}
