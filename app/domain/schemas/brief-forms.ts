import { briefQuestionSchema, checkAnswers, MAX_BRIEF_QUESTIONS, missingMessage, type BriefQuestion } from "~/domain/brief";
import { z } from "~/domain/zod";

/*
 * The brief's two forms (decision 201): the staff question editor beside a service or a
 * plan, and the buyer's answers. Each is one zod schema that conform runs in the browser and the
 * action runs again on the server; the rules themselves are domain/brief.ts's, the API's own.
 */

export const BRIEF_QUESTIONS_INTENT = "save-brief-questions";

const row = z.object({
  key: z.string().optional(),
  label: z.string().optional(),
  kind: z.string().optional(),
  required: z.literal("on").optional(),
  /** A choice's options, one per line. */
  options: z.string().optional(),
});

const KEY = /^[a-z0-9][a-z0-9_-]{0,39}$/;

/** A new question's key from its label ("Brand name" → brand_name), unique within the brief; a kept key stays. */
function keyFor(kept: string | undefined, label: string, used: Set<string>): string {
  const base =
    kept && KEY.test(kept)
      ? kept
      : label
          .toLowerCase()
          .normalize("NFKD")
          .replace(/[^a-z0-9]+/g, "_")
          .replace(/^_+|_+$/g, "")
          .slice(0, 36) || "question";
  let key = base;
  for (let n = 2; used.has(key); n++) key = `${base.slice(0, 36)}-${n}`;
  used.add(key);
  return key;
}

const lines = (value: string | undefined) =>
  (value ?? "")
    .split(/\r?\n/)
    .map((option) => option.trim())
    .filter(Boolean);

/** The editor: rows of label, kind, required and options; each row's problem is reported under its own field. */
export const briefQuestionsFormSchema = z
  .object({
    intent: z.literal(BRIEF_QUESTIONS_INTENT),
    questions: z.array(row).max(MAX_BRIEF_QUESTIONS, `A brief has at most ${MAX_BRIEF_QUESTIONS} questions`).default([]),
  })
  .transform((value, ctx) => {
    const used = new Set<string>();
    const questions: BriefQuestion[] = [];
    value.questions.forEach((question, index) => {
      const label = question.label?.trim() ?? "";
      const parsed = briefQuestionSchema.safeParse({
        key: keyFor(question.key, label, used),
        label,
        kind: question.kind ?? "text",
        required: question.required === "on",
        options: question.kind === "choice" ? lines(question.options) : undefined,
      });
      if (parsed.success) return void questions.push(parsed.data);
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === "options" || issue.path[0] === "kind" ? issue.path[0] : "label";
        ctx.addIssue({ code: "custom", path: ["questions", index, field], message: issue.message });
      }
    });
    return { intent: value.intent, questions };
  });

/* ---------- the buyer's answers ---------- */

/** Stands for a file chosen in the form but not stored yet: such a question counts as answered. */
const CHOSEN_FILE = "00000000-0000-4000-8000-000000000000";

const isChosenFile = (value: unknown) => typeof value === "object" && value !== null && "size" in value && (value as { size: number }).size > 0;
const asList = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/**
 * The answers form of one brief: `answers.<key>` (text; a file question's kept upload ids) and
 * `upload.<key>` (files chosen now). Each problem sits under its question; a required question left
 * empty says so, and the form's own message names every one of them.
 */
export function briefAnswersFormSchema(questions: readonly BriefQuestion[]) {
  return z.object({ answers: z.record(z.string(), z.unknown()).default({}), upload: z.record(z.string(), z.unknown()).default({}) }).transform((value, ctx) => {
    const raw: Record<string, unknown> = {};
    for (const question of questions) {
      const given = value.answers[question.key];
      if (question.kind !== "file") {
        raw[question.key] = given ?? "";
        continue;
      }
      const kept = asList(given).filter((id): id is string => typeof id === "string" && id !== "");
      const chosen = asList(value.upload[question.key]).filter(isChosenFile);
      raw[question.key] = [...kept, ...chosen.map(() => CHOSEN_FILE)];
    }
    const checked = checkAnswers(questions, raw);
    for (const question of questions) {
      if (checked.errors[question.key]) ctx.addIssue({ code: "custom", path: ["answers", question.key], message: checked.errors[question.key]! });
      else if (checked.missing.includes(question.label))
        ctx.addIssue({ code: "custom", path: ["answers", question.key], message: "Please answer this question" });
    }
    if (checked.missing.length > 0) ctx.addIssue({ code: "custom", path: [], message: missingMessage(checked.missing) });
    return checked.answers;
  });
}
