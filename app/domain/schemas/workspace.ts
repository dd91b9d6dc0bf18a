import { line, text, z } from "~/domain/zod";

/*
 * The staff workspace: internal notes on a thread and the team's saved replies.
 * One schema per form, shared by the API, the no-JavaScript forms and the browser.
 */

export const NOTE_MAX = 5000;
export const REPLY_TITLE_MAX = 80;
export const REPLY_BODY_MAX = 2000;

export const noteSchema = z.object({
  body: text(
    z
      .string({ error: "Please write the note." })
      .trim()
      .min(1, { error: "Please write the note." })
      .max(NOTE_MAX, { error: `A note is at most ${NOTE_MAX} characters.` }),
    "Note",
  ),
});

export const savedReplySchema = z.object({
  title: line(
    z
      .string({ error: "Please give the reply a title." })
      .trim()
      .min(1, { error: "Please give the reply a title." })
      .max(REPLY_TITLE_MAX, { error: `A title is at most ${REPLY_TITLE_MAX} characters.` }),
    "Title",
  ),
  body: text(
    z
      .string({ error: "Please write the reply." })
      .trim()
      .min(1, { error: "Please write the reply." })
      .max(REPLY_BODY_MAX, { error: `A reply is at most ${REPLY_BODY_MAX} characters.` }),
    "Reply",
  ),
});

const id = z.string().meta({ format: "uuid" });
const isoDate = z.string().meta({ format: "date-time" });

export const noteJson = z.object({ _id: id, author: z.object({ _id: id, name: z.string() }).nullable(), body: z.string(), createdAt: isoDate });
export type NoteJson = z.infer<typeof noteJson>;

export const savedReplyJson = z.object({ _id: id, title: z.string(), body: z.string() });
export type SavedReplyJson = z.infer<typeof savedReplyJson>;
