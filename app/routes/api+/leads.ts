import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { leadJson, leadsQuery } from "~/domain/schemas/grader";
import { listLeads, toLeadJson } from "~/models/grades.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const response = statusData(z.object({ leads: leadJson.array(), total: z.number().int() }));

/** GET /api/leads[?search=&page=&limit=] (staff): grader leads newest first, with their grade and whether they became a customer. */
export const loader = apiRoute(
  { method: "GET", auth: "team", query: leadsQuery, response, summary: "Grader leads, newest first, with the total." },
  async ({ query }) => {
    const { leads, total } = await listLeads(query);
    return { status: "success", data: { leads: leads.map(toLeadJson), total } };
  },
);

export const action = methodNotAllowed;
