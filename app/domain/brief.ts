import { isUuid } from "./ids";
import { breaksTextRule, controlCharacterMessage, line, z } from "./zod";

/*
 * Briefs (decision 200): what staff ask the buyer of a service or a plan, and the rules an answer
 * follows. The same rules serve the staff editor, the customer's form and the JSON API. A file
 * answer is the id of a chat attachment the customer uploaded (the chat attachment rules), or
 * several.
 */

export const BRIEF_KINDS = ["text", "longText", "choice", "url", "file"] as const;
export type BriefKind = (typeof BRIEF_KINDS)[number];

export const MAX_BRIEF_QUESTIONS = 30;
export const MAX_LABEL_LENGTH = 200;
export const MAX_OPTIONS = 20;
export const MAX_OPTION_LENGTH = 100;
export const MAX_FILES_PER_ANSWER = 5;
const MAX_ANSWER_LENGTH: Record<Exclude<BriefKind, "file" | "choice">, number> = { text: 500, longText: 5000, url: 2000 };

export interface BriefQuestion {
  key: string;
  label: string;
  kind: BriefKind;
  required: boolean;
  options?: string[];
}

export type BriefAnswer = string | string[];
export type BriefAnswers = Record<string, BriefAnswer>;

export const KEY_MESSAGE = "Each question's key is 1 to 40 lowercase letters, digits, _ or -, starting with a letter or digit";

const optionField = line(
  z
    .string({ error: "Each option is text" })
    .trim()
    .min(1, "An option cannot be empty")
    .max(MAX_OPTION_LENGTH, `An option is at most ${MAX_OPTION_LENGTH} characters`),
  "An option",
);

export const briefQuestionSchema = z
  .object({
    key: z.string({ error: KEY_MESSAGE }).regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, KEY_MESSAGE),
    label: line(
      z
        .string({ error: "Each question needs a label" })
        .trim()
        .min(1, "Each question needs a label")
        .max(MAX_LABEL_LENGTH, `A question's label is at most ${MAX_LABEL_LENGTH} characters`),
      "A question's label",
    ),
    kind: z.enum(BRIEF_KINDS, { error: `A question's kind is one of ${BRIEF_KINDS.join(", ")}` }),
    required: z.boolean({ error: "required is true or false" }).default(false),
    options: z.array(optionField, { error: "options is a list of text" }).max(MAX_OPTIONS, `A choice has at most ${MAX_OPTIONS} options`).optional(),
  })
  .superRefine((question, ctx) => {
    if (question.kind === "choice") {
      const options = question.options ?? [];
      if (options.length < 2) ctx.addIssue({ code: "custom", path: ["options"], message: `"${question.label}" is a choice: give it at least 2 options` });
      if (new Set(options.map((o) => o.toLowerCase())).size !== options.length)
        ctx.addIssue({ code: "custom", path: ["options"], message: `"${question.label}" lists an option twice` });
    }
  })
  // Options belong to a choice: another kind keeps none.
  .transform((q): BriefQuestion =>
    q.kind === "choice"
      ? { key: q.key, label: q.label, kind: q.kind, required: q.required, options: q.options }
      : { key: q.key, label: q.label, kind: q.kind, required: q.required },
  );

export const briefQuestionsSchema = z
  .array(briefQuestionSchema, { error: "questions is a list of questions" })
  .max(MAX_BRIEF_QUESTIONS, `A brief has at most ${MAX_BRIEF_QUESTIONS} questions`)
  .superRefine((questions, ctx) => {
    const seen = new Set<string>();
    for (const question of questions) {
      if (seen.has(question.key)) ctx.addIssue({ code: "custom", message: `Two questions share the key "${question.key}"` });
      seen.add(question.key);
    }
  });

export interface AnswerCheck {
  answers: BriefAnswers;
  /** Labels of required questions left empty. */
  missing: string[];
  /** Other problems, per question key: the message names the question. */
  errors: Record<string, string>;
}

const isBlank = (value: BriefAnswer | undefined) => value === undefined || (Array.isArray(value) ? value.length === 0 : value === "");

/** A web address as typed: "example.com" means https://example.com; only http and https. */
export function normalizeUrl(raw: string): string | null {
  const value = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
  try {
    const url = new URL(value);
    if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname.includes(".")) return null;
    return url.toString();
  } catch {
    return null;
  }
}

/**
 * Checks answers against a brief's questions: unknown keys, wrong shapes, lengths, choices not
 * offered, addresses that are not web addresses. Empty answers are dropped; a required one left
 * empty is `missing`. File ids are checked for shape here and for ownership by the server.
 */
export function checkAnswers(questions: readonly BriefQuestion[], raw: unknown): AnswerCheck {
  const answers: BriefAnswers = {};
  const missing: string[] = [];
  const errors: Record<string, string> = {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return { answers, missing, errors: { "": "answers is an object of question keys to answers" } };
  const given = raw as Record<string, unknown>;
  const byKey = new Map(questions.map((q) => [q.key, q]));
  for (const key of Object.keys(given)) if (!byKey.has(key)) errors[key] = `There is no question "${key.slice(0, 40)}" in this brief`;
  for (const question of questions) {
    const value = given[question.key];
    const label = `"${question.label}"`;
    if (value === undefined || value === null) {
      if (question.required) missing.push(question.label);
      continue;
    }
    if (question.kind === "file") {
      const ids = Array.isArray(value) ? value : [value];
      if (!ids.every((id) => typeof id === "string")) {
        errors[question.key] = `${label}: a file answer is an upload id or a list of them`;
        continue;
      }
      const unique = [...new Set((ids as string[]).map((id) => id.trim()).filter(Boolean))];
      if (unique.some((id) => !isUuid(id))) errors[question.key] = `${label}: a file answer is an upload id or a list of them`;
      else if (unique.length > MAX_FILES_PER_ANSWER) errors[question.key] = `${label}: at most ${MAX_FILES_PER_ANSWER} files`;
      else if (unique.length > 0) answers[question.key] = unique;
    } else {
      if (typeof value !== "string") {
        errors[question.key] = `${label}: the answer is text`;
        continue;
      }
      const text = value.trim();
      if (text === "") {
        // Left empty: counted below.
      } else if (breaksTextRule(text, { multiline: question.kind === "longText" })) {
        errors[question.key] = controlCharacterMessage(label);
      } else if (question.kind === "choice") {
        if (!question.options?.includes(text)) errors[question.key] = `${label}: choose one of the options`;
        else answers[question.key] = text;
      } else if (text.length > MAX_ANSWER_LENGTH[question.kind]) {
        errors[question.key] = `${label} is at most ${MAX_ANSWER_LENGTH[question.kind].toLocaleString("en-US")} characters`;
      } else if (question.kind === "url") {
        const url = normalizeUrl(text);
        if (!url || url.length > MAX_ANSWER_LENGTH.url) errors[question.key] = `${label}: enter a web address, e.g. https://example.com`;
        else answers[question.key] = url;
      } else {
        answers[question.key] = text;
      }
    }
    if (question.required && isBlank(answers[question.key]) && !errors[question.key]) missing.push(question.label);
  }
  return { answers, missing, errors };
}

/** The 400 message naming each required question left empty. */
export const missingMessage = (labels: readonly string[]) =>
  `Please answer ${labels.length === 1 ? "the required question" : "the required questions"}: ${labels.map((l) => `"${l}"`).join(", ")}.`;
