import { gradeAnswersSchema } from "~/domain/grader";
import { createGrade } from "~/models/grades.server";

import { byRole, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * The grader (decision 110): grading and a grade's page, API and image are for anyone holding the
 * id; the leads are for staff only.
 */

const answers = { followers: 1500, avgLikes: 40, avgComments: 3, postsPerWeek: 3 };

export async function fixtures() {
  const grade = await createGrade({ answers: gradeAnswersSchema.parse(answers) });
  return { gradeId: grade.id };
}

const gradeId = (f: Fixtures) => f.ids.gradeId;
const form = { "answers.followers": "900", "answers.avgLikes": "30", "answers.avgComments": "2", "answers.postsPerWeek": "2" };

export const rows: AuthorizationRow[] = [
  { route: "api+/grades.ts", method: "POST", path: "/api/grades", body: { json: { answers } }, expect: everyone(201) },
  { route: "api+/grades.ts", method: "GET", path: "/api/grades", expect: everyone(405) },
  { route: "api+/grades.$id.ts", method: "GET", path: (f) => `/api/grades/${gradeId(f)}`, expect: everyone(200) },
  { route: "api+/grades.$id.ts", method: "POST", path: (f) => `/api/grades/${gradeId(f)}`, expect: everyone(405) },
  { route: "api+/leads.ts", method: "GET", path: "/api/leads", expect: byRole({ anonymous: 401, customer: 403, team: 200 }) },
  { route: "api+/leads.ts", method: "POST", path: "/api/leads", expect: everyone(405) },
  { route: "grade._index.tsx", method: "GET", path: "/grade", expect: everyone(200) },
  { route: "grade._index.tsx", method: "POST", path: "/grade", body: { form }, expect: everyone({ status: 302, location: "/grade/" }) },
  { route: "grade.$id.tsx", method: "GET", path: (f) => `/grade/${gradeId(f)}`, expect: everyone(200) },
  { route: "grade.$id_.og[.]png.ts", method: "GET", path: (f) => `/grade/${gradeId(f)}/og.png`, expect: everyone(200) },
  {
    route: "dashboard+/_staff+/leads.tsx",
    method: "GET",
    path: "/dashboard/leads",
    expect: byRole({ anonymous: { status: 302, location: "/login" }, customer: 403, team: 200 }),
  },
];
