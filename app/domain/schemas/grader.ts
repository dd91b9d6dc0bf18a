import { AREAS, gradeAnswersSchema, LETTERS } from "~/domain/grader";
import { emailField } from "~/domain/schemas/auth";
import { line, z } from "~/domain/zod";

/** POST /api/grades and the /grade form: the answers, and optionally who to send the report to. */
export const gradeRequestSchema = z.object({
  answers: gradeAnswersSchema,
  email: z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), emailField.optional()),
  name: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    line(z.string().trim().max(120, "Your name must be at most 120 characters."), "Your name").optional(),
  ),
});

const id = z.string().meta({ format: "uuid" });

export const gradeJson = z.object({
  _id: id,
  overall: z.enum(LETTERS),
  score: z.number().int().min(0).max(100),
  areas: z.array(z.object({ key: z.enum(AREAS), label: z.string(), score: z.number().int(), grade: z.enum(LETTERS), advice: z.string() })),
  recommendations: z.array(
    z.object({
      service: z.object({ _id: id, name: z.string(), price: z.number().meta({ description: "In dollars." }), currency: z.string() }),
      reason: z.string(),
    }),
  ),
  createdAt: z.string().meta({ format: "date-time" }),
});
export type GradeJson = z.infer<typeof gradeJson>;

export const leadJson = z.object({
  _id: id,
  email: z.string(),
  name: z.string().nullable(),
  grade: z.object({ _id: id, overall: z.enum(LETTERS), score: z.number().int() }),
  createdAt: z.string().meta({ format: "date-time" }),
  customer: z.object({ _id: id, name: z.string() }).nullable(),
});
export type LeadJson = z.infer<typeof leadJson>;

export const LEADS_PAGE_SIZE = 20;
export const LEADS_MAX_PAGE_SIZE = 100;

export const leadsQuery = z.object({
  search: line(z.string().trim().max(200, "The search is too long."), "The search").optional(),
  page: z.coerce
    .number({ error: "Page must be a whole number." })
    .int("Page must be a whole number.")
    .min(1, "Page must be at least 1.")
    .max(1_000_000)
    .default(1),
  limit: z.coerce
    .number({ error: "Limit must be a whole number." })
    .int("Limit must be a whole number.")
    .min(1, "Limit must be at least 1.")
    .max(LEADS_MAX_PAGE_SIZE, `Limit must be at most ${LEADS_MAX_PAGE_SIZE}.`)
    .default(LEADS_PAGE_SIZE),
});
