import { z } from "zod";

import { isUuid } from "~/domain/ids";
import { statusData } from "~/domain/schemas/api";
import { gradeJson } from "~/domain/schemas/grader";
import { findGrade, gradeJson as toGradeJson } from "~/models/grades.server";
import { methodNotAllowed, notFound } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const params = z.object({ id: z.string() });
const response = statusData(z.object({ grade: gradeJson }));

/** GET /api/grades/:id: anyone holding the (random) id. */
export const loader = apiRoute({ method: "GET", auth: "none", params, response, summary: "A grade, by its id." }, async ({ params }) => {
  const grade = isUuid(params.id) ? await findGrade(params.id) : null;
  if (!grade) throw notFound("Grade not found.");
  return { status: "success", data: { grade: await toGradeJson(grade) } };
});

export const action = methodNotAllowed;
