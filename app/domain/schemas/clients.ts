import { CLIENT_ROLES } from "~/domain/clients";
import { line, z } from "~/domain/zod";

import { isoDate } from "./api";
import { emailField, nameField } from "./order";

/** Client teams' shapes (decision 283): one schema per form and body, read by the API and the pages. */

const roleField = z.enum(CLIENT_ROLES, { error: `Role must be one of: ${CLIENT_ROLES.join(", ")}.` });

export const memberJson = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(CLIENT_ROLES),
  joinedAt: isoDate.nullable(),
});
export const clientRefJson = z.object({ _id: z.string(), name: z.string() });

export const clientNameSchema = z.object({ name: nameField });
export const inviteMemberSchema = z.object({ email: emailField, name: nameField, role: roleField });
export const memberRoleSchema = z.object({ role: roleField });

export const clientsQuerySchema = z.object({
  search: line(z.string().trim().max(200, "Search must be at most 200 characters."), "The search").optional(),
  page: z.coerce
    .number({ error: "page must be a whole number from 1." })
    .int("page must be a whole number from 1.")
    .min(1, "page must be a whole number from 1.")
    .default(1),
  limit: z.coerce
    .number({ error: "limit must be a number from 1 to 100." })
    .int("limit must be a number from 1 to 100.")
    .min(1, "limit must be a number from 1 to 100.")
    .max(100, "limit must be a number from 1 to 100.")
    .default(20),
});
