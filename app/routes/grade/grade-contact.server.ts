import { createCookie } from "@remix-run/node";

import { env, sessionSecrets } from "~/utils/env.server";

/*
 * The name and e-mail a visitor typed into the grader, kept for their own browser so the report
 * card's "Order these services" form starts filled in. Not stored on the grade: its link is shared,
 * and the page shows no personal data to anyone else.
 */
const gradeContactCookie = createCookie("__grade_contact", {
  httpOnly: true,
  sameSite: "lax",
  path: "/grade",
  secure: env.secureCookies,
  secrets: sessionSecrets(env),
  maxAge: 60 * 60 * 24,
});

type GradeContact = { gradeId: string; name?: string; email?: string };

export async function gradeContactHeader(contact: GradeContact): Promise<string | null> {
  if (!contact.name && !contact.email) return null;
  return gradeContactCookie.serialize(contact);
}

/** What the visitor typed for this grade, from their own cookie; null for anyone else. */
export async function gradeContactFor(request: Request, gradeId: string): Promise<{ name?: string; email?: string } | null> {
  const value = (await gradeContactCookie.parse(request.headers.get("Cookie"))) as GradeContact | null;
  if (!value || typeof value !== "object" || value.gradeId !== gradeId) return null;
  return {
    name: typeof value.name === "string" ? value.name : undefined,
    email: typeof value.email === "string" ? value.email : undefined,
  };
}
