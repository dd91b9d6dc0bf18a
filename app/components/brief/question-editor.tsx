import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";

import type { CatalogueReply } from "~/components/catalogue/forms";
import { Button } from "~/components/ui/button";
import { Field, Input, Textarea } from "~/components/ui/input";
import { useIsPending } from "~/components/ui/use-is-pending";
import { MAX_BRIEF_QUESTIONS, type BriefKind, type BriefQuestion } from "~/domain/brief";
import { BRIEF_QUESTIONS_INTENT, briefQuestionsFormSchema } from "~/domain/schemas/brief-forms";

/*
 * The brief's questions beside a service or a plan (staff). Add, remove and move are conform's
 * intent buttons: with JavaScript they change the list in place, without it they post and the page
 * comes back with the list changed; nothing is saved until "Save questions".
 */

export const BRIEF_KIND_LABELS: Record<BriefKind, string> = {
  text: "Short text",
  longText: "Long text",
  choice: "Choice",
  url: "Web address",
  file: "File upload",
};

const selectClass =
  "block min-h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600";

type EditorProps = { subjectId: string; subjectName: string; questions: BriefQuestion[]; reply?: CatalogueReply };

/** The catalogue page's Brief section (a service's or a plan's): what it is for, then the editor. */
export function BriefSection(props: EditorProps) {
  return (
    <section aria-labelledby="brief-heading" className="space-y-4 rounded-card border border-slate-200 bg-white p-5 shadow-card">
      <div>
        <h3 id="brief-heading" className="text-lg font-semibold text-slate-950">
          Brief
        </h3>
        <p className="text-sm text-slate-600">
          What the buyer is asked after paying, up to 30 questions. They see &ldquo;Brief needed&rdquo; until they answer.
        </p>
      </div>
      <BriefQuestionEditor key={props.subjectId} {...props} />
    </section>
  );
}

function BriefQuestionEditor({ subjectId, subjectName, questions, reply }: EditorProps) {
  const formId = `brief-${subjectId}`;
  const [form, fields] = useForm({
    id: formId,
    lastResult: reply?.formId === formId ? reply.result : undefined,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      questions: questions.map((q) => ({
        key: q.key,
        label: q.label,
        kind: q.kind,
        required: q.required ? "on" : undefined,
        options: q.options?.join("\n") ?? "",
      })),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: briefQuestionsFormSchema }),
  });
  const pending = useIsPending({ field: { name: "formId", value: formId } });
  const rows = fields.questions.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)} aria-label={`Brief questions of ${subjectName}`} className="space-y-4">
      <input type="hidden" name="formId" value={formId} />
      <input type="hidden" name="intent" value={BRIEF_QUESTIONS_INTENT} />
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className="text-sm font-medium text-red-700">
          {form.errors.join(" ")}
        </p>
      ) : null}
      {rows.length === 0 ? <p className="text-sm text-slate-600">No questions: buyers are not asked for a brief.</p> : null}
      <ol className="space-y-4">
        {rows.map((rowField, index) => {
          const q = rowField.getFieldset();
          const n = index + 1;
          const { key: keyKey, ...keyProps } = getInputProps(q.key, { type: "hidden" });
          const { key: labelKey, ...labelProps } = getInputProps(q.label, { type: "text" });
          const { key: kindKey, ...kindProps } = getSelectProps(q.kind);
          const { key: requiredKey, ...requiredProps } = getInputProps(q.required, { type: "checkbox" });
          const { key: optionsKey, ...optionsProps } = getTextareaProps(q.options);
          return (
            <li key={rowField.key}>
              <fieldset className="grid gap-3 rounded-2xl border border-slate-200 p-4 sm:grid-cols-6">
                <legend className="px-1 text-sm font-semibold text-slate-900">Question {n}</legend>
                <input {...keyProps} key={keyKey} />
                <Field id={q.label.id} label="Question" error={q.label.errors} className="sm:col-span-4">
                  <Input key={labelKey} {...labelProps} maxLength={200} />
                </Field>
                <Field id={q.kind.id} label="Answer type" error={q.kind.errors} className="sm:col-span-2">
                  <select key={kindKey} {...kindProps} className={selectClass}>
                    {Object.entries(BRIEF_KIND_LABELS).map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field
                  id={q.options.id}
                  label="Options (for a choice, one per line)"
                  error={q.options.errors}
                  hint="Used only when the answer type is Choice."
                  className="sm:col-span-4"
                >
                  <Textarea key={optionsKey} {...optionsProps} rows={2} />
                </Field>
                <div className="flex flex-wrap items-end gap-2 sm:col-span-2">
                  <label className="flex min-h-11 w-full items-center gap-2 text-sm font-semibold text-slate-800">
                    <input key={requiredKey} {...requiredProps} className="size-5 rounded border-slate-400 accent-brand-600" />
                    Required
                  </label>
                  <Button
                    variant="ghost"
                    size="sm"
                    {...form.reorder.getButtonProps({ name: fields.questions.name, from: index, to: index - 1 })}
                    disabled={index === 0}
                  >
                    Up<span className="sr-only">: move question {n} up</span>
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    {...form.reorder.getButtonProps({ name: fields.questions.name, from: index, to: index + 1 })}
                    disabled={index === rows.length - 1}
                  >
                    Down<span className="sr-only">: move question {n} down</span>
                  </Button>
                  <Button variant="ghost" size="sm" {...form.remove.getButtonProps({ name: fields.questions.name, index })}>
                    Remove<span className="sr-only"> question {n}</span>
                  </Button>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="outline"
          {...form.insert.getButtonProps({ name: fields.questions.name, defaultValue: { kind: "text" } })}
          disabled={rows.length >= MAX_BRIEF_QUESTIONS}
        >
          Add a question
        </Button>
        <Button type="submit" loading={pending}>
          Save questions<span className="sr-only"> of {subjectName}</span>
        </Button>
        <p className="text-sm text-slate-600">
          {rows.length} of {MAX_BRIEF_QUESTIONS} questions. Orders paid from now on ask these; earlier briefs keep theirs.
        </p>
      </div>
    </Form>
  );
}
