import { z } from "zod";

import { statusData } from "~/domain/schemas/api";
import { gradeJson, gradeRequestSchema } from "~/domain/schemas/grader";
import { createGrade, gradeJson as toGradeJson } from "~/models/grades.server";
import { methodNotAllowed } from "~/utils/http.server";
import { limits } from "~/utils/rate-limit.server";
import { apiRoute } from "~/web/api.server";

const response = statusData(z.object({ grade: gradeJson }));

/** POST /api/grades {answers, email?, name?}: grade a social media page; with an e-mail, the report goes out and the team gets a lead. */
export const action = apiRoute(
  {
    method: "POST",
    auth: "none",
    body: gradeRequestSchema,
    response,
    status: 201,
    rateLimit: { limiter: limits.order, key: ({ clientIp }) => `grade:${clientIp}` },
    summary: "Grade a social media page (rate-limited like orders).",
  },
  async ({ body }) => {
    const grade = await createGrade(body);
    return { status: "success", data: { grade: await toGradeJson(grade) } };
  },
);

export const loader = methodNotAllowed;
