import { z } from "zod";

import { can } from "~/domain/permissions";
import { reportJson, successData } from "~/domain/schemas/api";
import { findCustomer } from "~/models/customers.server";
import { listReportsForService, toReportJson } from "~/models/reports.server";
import { badRequest, methodNotAllowed, notFound } from "~/utils/http.server";
import { logger } from "~/utils/logger.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ serviceId: z.string() });
const query = z.object({ userId: z.string().optional() });

/**
 * GET /api/reports/service/:serviceId[?userId=U]: a customer's own reports for a service; staff
 * name the customer with userId. A customer naming someone else gets the logged 404 of any
 * other customer's things.
 */
const response = successData(z.object({ reports: reportJson.array() }));

export const loader = apiRoute(
  { method: "GET", auth: "any", params, query, response, summary: "Reports of one service: the customer's own, or (staff) a named customer's." },
  async ({ user, params, query }) => {
    const staff = can(user, "reports:list-any");
    let ownerId = user.id;
    if (!staff && query.userId && query.userId !== user.id) {
      logger.warn({ actorId: user.id, userId: query.userId }, "refused another customer's reports");
      throw notFound("Customer not found.");
    }
    if (staff) {
      if (!query.userId) throw badRequest("Please give the customer's userId.");
      const customer = await findCustomer(query.userId);
      if (!customer) throw notFound("Customer not found.");
      ownerId = customer.id;
    }
    const reports = await listReportsForService(ownerId, params.serviceId);
    return { success: true, data: { reports: reports.map(toReportJson) } };
  },
);

export const action = methodNotAllowed;
