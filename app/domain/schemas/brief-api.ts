import { BRIEF_KINDS, briefQuestionsSchema } from "~/domain/brief";
import { statusData, successData } from "~/domain/schemas/api";
import { z } from "~/domain/zod";

/*
 * The JSON shapes of the brief routes (decision 200), for validation and the OpenAPI document.
 */

const isoDate = z.string().meta({ format: "date-time" });

const questionJson = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(BRIEF_KINDS),
  required: z.boolean(),
  options: z.array(z.string()).optional().meta({ description: "A choice's options." }),
});

export const briefQuestionsBody = z.object({ questions: briefQuestionsSchema.meta({ description: "At most 30; keys unique." }) });
export const briefQuestionsResponse = successData(z.object({ questions: z.array(questionJson) }));

export const briefAnswersBody = z.object({
  answers: z.record(z.string(), z.union([z.string(), z.array(z.string())]), { error: "answers is an object of question keys to answers" }).meta({
    description:
      "Question key → text (a choice: one of its options), or for a file question an upload id or a list of them (POST /api/chat/attachments to your own support thread).",
  }),
});

export const briefJson = z.object({
  questions: z.array(questionJson).meta({ description: "As they were when the order was paid." }),
  answers: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  submittedAt: isoDate.nullable(),
});
export const briefResponse = statusData(z.object({ brief: briefJson }));
