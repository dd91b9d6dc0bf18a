import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";

import type { BriefAnswersView, BriefFileView } from "~/components/brief/brief-answers";
import { Button } from "~/components/ui/button";
import { Field, FieldError, Input, Textarea } from "~/components/ui/input";
import { useIsPending } from "~/components/ui/use-is-pending";
import { MAX_FILES_PER_ANSWER, type BriefAnswers, type BriefQuestion } from "~/domain/brief";
import { formatFileSize } from "~/domain/format";
import { ATTACHMENT_ACCEPT } from "~/domain/inbox";

/*
 * The buyer's brief: one field per question, a file question with the files it names (untick to
 * drop one) and a file chooser. The form is a multipart POST to its page, so it works without
 * JavaScript, files included; with JavaScript the same post goes by fetch and conform shows the
 * server's reply under each question (the form's schema runs on the server, where files are stored).
 */

export interface BriefFormReply {
  result: SubmissionResult<string[]>;
  uploads: Record<string, BriefFileView>;
}

type Values = { answers: Record<string, string | string[]>; upload: Record<string, unknown> };

const required = (question: BriefQuestion) => (question.required ? <span className="font-normal text-slate-600"> (required)</span> : null);

/** A question answered with several inputs (choices, files): its label as the legend, its error below. */
function QuestionFieldset({ question, meta, children }: { question: BriefQuestion; meta: { errorId: string; errors?: string[] }; children: ReactNode }) {
  return (
    <fieldset aria-describedby={meta.errors ? meta.errorId : undefined} className="space-y-2">
      <legend className="text-sm font-semibold text-slate-800">
        {question.label}
        {required(question)}
      </legend>
      {children}
      <FieldError id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

export function BriefForm({ brief, files, reply }: { brief: BriefAnswersView; files: Record<string, BriefFileView>; reply?: BriefFormReply }) {
  const [form, fields] = useForm<Values, BriefAnswers>({
    id: "brief",
    lastResult: reply?.result,
    defaultValue: { answers: brief.answers },
    // Checked on the server only (decision 201): a chosen file must be stored before its question counts as answered.
  });
  const pending = useIsPending();
  const answers = fields.answers.getFieldset();
  const uploads = fields.upload.getFieldset();
  const known = { ...files, ...reply?.uploads };
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} aria-label="Your brief" className="space-y-5">
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800">
          {form.errors.join(" ")}
        </p>
      ) : null}
      {brief.questions.map((question) => {
        const meta = answers[question.key]!;
        if (question.kind === "choice") {
          const chosen = typeof meta.initialValue === "string" ? meta.initialValue : undefined;
          return (
            <QuestionFieldset key={question.key} question={question} meta={meta}>
              <div className="flex flex-wrap gap-x-5 gap-y-1">
                {question.options?.map((option) => (
                  <label key={option} className="flex min-h-11 items-center gap-2 text-slate-800">
                    <input type="radio" name={meta.name} value={option} defaultChecked={chosen === option} className="size-5 accent-brand-600" />
                    {option}
                  </label>
                ))}
              </div>
            </QuestionFieldset>
          );
        }
        if (question.kind === "file") {
          const ids = [meta.initialValue ?? []].flat().filter((id): id is string => typeof id === "string");
          const upload = uploads[question.key]!;
          return (
            <QuestionFieldset key={question.key} question={question} meta={meta}>
              {ids.length > 0 ? (
                <ul className="space-y-1">
                  {ids.map((id) => (
                    <li key={id}>
                      <label className="flex min-h-11 items-center gap-2 text-slate-800">
                        <input type="checkbox" name={meta.name} value={id} defaultChecked className="size-5 rounded accent-brand-600" />
                        {known[id]?.fileName ?? "File"}
                        {known[id] ? <span className="text-sm text-slate-600">({formatFileSize(known[id].fileSize)})</span> : null}
                      </label>
                    </li>
                  ))}
                </ul>
              ) : null}
              <label htmlFor={upload.id} className="block text-sm text-slate-700">
                {ids.length > 0 ? "Add files" : "Choose files"} (images or PDF, up to 10 MB each, at most {MAX_FILES_PER_ANSWER})
              </label>
              <input
                id={upload.id}
                type="file"
                name={upload.name}
                multiple
                accept={ATTACHMENT_ACCEPT}
                className="block w-full text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-full file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-800"
              />
            </QuestionFieldset>
          );
        }
        const label = (
          <>
            {question.label}
            {required(question)}
          </>
        );
        if (question.kind === "longText") {
          const { key, ...props } = getTextareaProps(meta);
          return (
            <Field key={question.key} id={meta.id} label={label} error={meta.errors}>
              <Textarea key={key} {...props} rows={5} />
            </Field>
          );
        }
        const { key, ...props } = getInputProps(meta, { type: "text" });
        return (
          <Field
            key={question.key}
            id={meta.id}
            label={label}
            error={meta.errors}
            hint={question.kind === "url" ? "A web address, e.g. example.com" : undefined}
          >
            <Input key={key} {...props} inputMode={question.kind === "url" ? "url" : undefined} />
          </Field>
        );
      })}
      <Button type="submit" loading={pending}>
        {brief.submittedAt ? "Save changes" : "Send brief"}
      </Button>
    </Form>
  );
}
