import { APPROVAL_MODES, APPROVERS, MAX_REVIEW_HOURS, ON_DEADLINE, REVIEW_DECISIONS, REVIEW_STAGES } from "~/domain/approvals";
import { z } from "~/domain/zod";

import { isoDate } from "./api";

/** The approval settings' body and answer, the revisions' answer (decisions 292–294). */

export const approvalSchema = z.object({
  mode: z.enum(APPROVAL_MODES, { error: `mode must be one of ${APPROVAL_MODES.join(", ")}.` }),
  approvers: z.enum(APPROVERS, { error: `approvers must be one of ${APPROVERS.join(", ")}.` }),
  onDeadline: z.enum(ON_DEADLINE, { error: `onDeadline must be one of ${ON_DEADLINE.join(", ")}.` }),
  reviewHours: z.preprocess(
    // A form sends text: "48" is 48; anything else is refused with the message below.
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
    z
      .number({ error: `reviewHours must be a whole number of hours from 0 to ${MAX_REVIEW_HOURS}.` })
      .int({ error: `reviewHours must be a whole number of hours from 0 to ${MAX_REVIEW_HOURS}.` })
      .min(0, { error: `reviewHours must be a whole number of hours from 0 to ${MAX_REVIEW_HOURS}.` })
      .max(MAX_REVIEW_HOURS, { error: `reviewHours must be a whole number of hours from 0 to ${MAX_REVIEW_HOURS}.` }),
  ),
});

export const revisionJson = z.object({
  n: z.number().int(),
  caption: z.string(),
  media: z.array(z.object({ _id: z.string(), mimeType: z.string(), url: z.string() })),
  author: z.object({ _id: z.string().nullable(), name: z.string() }),
  createdAt: isoDate,
});
export type RevisionJson = z.infer<typeof revisionJson>;

/** What the Post answer gains for its review. */
export const postReviewJson = {
  reviewBy: isoDate.nullable(),
  stage: z.enum(REVIEW_STAGES).nullable(),
  approvals: z.array(z.object({ member: z.object({ _id: z.string(), name: z.string() }), decision: z.enum(REVIEW_DECISIONS), at: isoDate })),
  overdue: z.boolean(),
};
