import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { supportRoomId } from "~/domain/chat";
import { can } from "~/domain/permissions";
import { briefAnswersFormSchema } from "~/domain/schemas/brief-forms";
import { getBrief, submitBrief, type BriefFile, type BriefOf } from "~/models/briefs.server";
import { receiveAttachment } from "~/models/chat-attachments.server";
import { HttpError, httpErrorResponse } from "~/utils/http.server";
import { requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { asPageError } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * The brief page of a purchase (/dashboard/services/:purchaseId/brief) and of a plan
 * (/dashboard/plans/:subscriptionId/brief): one loader and one action keyed by the subject
 * (decision 201). The owner answers; staff read; anyone else gets the page's 404. The form is
 * multipart, so a file travels with the answers, with or without JavaScript: each chosen file is
 * stored as a chat attachment to the owner's support thread (the same rules and quota as the chat's
 * uploads) before the answers are checked, and comes back listed if something else needs fixing.
 */

export const briefPagePath = (of: BriefOf) => (of.kind === "purchase" ? `/dashboard/services/${of.id}/brief` : `/dashboard/plans/${of.id}/brief`);

/** Where the page's "back" goes: the customer's service or plan, or for staff the customer's page. */
function backTo(of: BriefOf, viewerIsOwner: boolean, ownerId: string) {
  if (!viewerIsOwner) return { to: `/dashboard/users/${ownerId}`, label: "Back to the customer" };
  return of.kind === "purchase"
    ? { to: `/dashboard/services/${of.id}`, label: "Back to the service" }
    : { to: `/dashboard/plans/${of.id}`, label: "Back to the plan" };
}

export async function briefPageLoader(request: Request, of: BriefOf) {
  const user = await requireUser(request);
  const view = await getBrief(user, of).catch(asPageError);
  const canAnswer = can(user, "brief:answer", { ownerId: view.ownerId });
  return {
    title: view.title,
    hasBrief: view.brief !== null,
    /** Changes with each save: the form starts again from the saved answers, without the last refusal's messages. */
    version: view.brief?.updatedAt.toISOString() ?? "",
    brief: view.json,
    files: view.files,
    canAnswer,
    back: backTo(of, canAnswer, view.ownerId),
  };
}

export interface BriefReply {
  result: SubmissionResult<string[]>;
  /** Files stored by this post but not yet in the brief: listed so they need not be chosen again. */
  uploads: Record<string, BriefFile>;
}

export async function briefPageAction(request: Request, of: BriefOf) {
  const user = await requireUser(request);
  const view = await getBrief(user, of).catch(asPageError);
  if (!can(user, "brief:answer", { ownerId: view.ownerId })) throw httpErrorResponse(new HttpError(403, "Only the customer answers their brief.", "FORBIDDEN"));
  const questions = view.brief?.questions ?? [];
  const form = await readForm(request, { upload: true });

  const uploads: Record<string, BriefFile> = {};
  const uploadErrors: Record<string, string[]> = {};
  for (const question of questions.filter((q) => q.kind === "file")) {
    const files = form.getAll(`upload.${question.key}`).filter((value): value is File => typeof value === "object" && value.size > 0);
    form.delete(`upload.${question.key}`);
    for (const file of files) {
      try {
        const row = await storeUpload(user, view.ownerId, file);
        form.append(`answers.${question.key}`, row.id);
        uploads[row.id] = { id: row.id, fileName: row.fileName, mimeType: row.mimeType, fileSize: row.fileSize };
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        uploadErrors[`answers.${question.key}`] = [`${file.name}: ${error.message}`];
      }
    }
  }

  const submission = parseWithZod(form, { schema: briefAnswersFormSchema(questions) });
  if (submission.status !== "success" || Object.keys(uploadErrors).length > 0) {
    const reply: BriefReply = { result: submission.reply({ fieldErrors: uploadErrors }), uploads };
    return data(reply, { status: 400 });
  }
  try {
    await submitBrief(user, of, submission.value);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const reply: BriefReply = { result: submission.reply({ formErrors: [error.message] }), uploads };
    return data(reply, { status: error.status });
  }
  const message = view.json.submittedAt ? "Your brief was updated." : "Thank you: your brief was sent. We will be in touch.";
  return redirectWithToast(briefPagePath(of), { type: "success", message });
}

/** A file of the form, stored exactly as POST /api/chat/attachments stores one sent to the owner's support thread. */
function storeUpload(user: Parameters<typeof receiveAttachment>[0], ownerId: string, file: File) {
  const body = new FormData();
  body.append("roomId", supportRoomId(ownerId));
  body.append("file", file, file.name);
  return receiveAttachment(user, new Request("http://localhost/api/chat/attachments", { method: "POST", body }));
}
