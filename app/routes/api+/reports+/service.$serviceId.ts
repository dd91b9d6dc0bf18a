import { z } from "zod";

import { can, ownerKey } from "~/domain/permissions";
import { reportJson, successData } from "~/domain/schemas/api";
import { clientIdOf } from "~/models/clients.server";
import { listReportsForService, toReportJson } from "~/models/reports.server";
import { badRequest, methodNotAllowed, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ serviceId: z.string() });
const query = z.object({ userId: z.string().optional() });

/**
 * GET /api/reports/service/:serviceId[?userId=U]: the reports of a service of the signed-in member's
 * client; staff name the client with userId (any member's id). A customer naming another client's
 * member gets the logged 404 of any other customer's things; a member whose role does not cover the
 * work, 403.
 */
const response = successData(z.object({ reports: reportJson.array() }));

export const loader = apiRoute(
  {
    method: "GET",
    auth: "any",
    allow: "reports:list-own",
    params,
    query,
    response,
    summary: "Reports of one service: the customer's own, or (staff) a named customer's.",
  },
  async ({ user, params, query }) => {
    const staff = can(user, "reports:list-any");
    if (staff && !query.userId) throw badRequest("Please give the customer's userId.");
    const named = query.userId ? await clientIdOf(query.userId) : null;
    if (query.userId && (!named || (!staff && named !== ownerKey(user)))) {
      if (!staff) logger.warn({ actorId: user.id, userId: query.userId }, "refused another customer's reports");
      throw notFound("Customer not found.");
    }
    const ownerId = named ?? ownerKey(user);
    const reports = await listReportsForService(ownerId, params.serviceId);
    return { success: true, data: { reports: reports.map(toReportJson) } };
  },
);

export const action = methodNotAllowed;
