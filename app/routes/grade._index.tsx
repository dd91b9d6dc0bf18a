import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useNavigation } from "@remix-run/react";
import { useState } from "react";

import { FormAlert } from "~/components/auth/auth-layout";
import { GradeForm, type GradeFields } from "~/components/grader/grade-form";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { HoneypotField } from "~/components/ui/honeypot";
import { useIsPending } from "~/components/ui/use-is-pending";
import { gradeAnswers, gradeAnswersSchema } from "~/domain/grader";
import { gradeRequestSchema } from "~/domain/schemas/grader";
import { createGrade } from "~/models/grades.server";
import { gradeContactHeader } from "~/routes/grade/grade-contact.server";
import { clientIp, consume, limits } from "~/utils/rate-limit.server";
import { readForm } from "~/web/body-limit.server";
import { httpErrorInit, replyOnHttpError } from "~/web/form-reply.server";
import { checkHoneypot } from "~/web/honeypot.server";

/*
 * The social media grader: a one-screen questionnaire. A plain form without JavaScript (the
 * action grades and redirects to the report card); with it, the score updates as you answer.
 */

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  checkHoneypot(form);
  const submission = parseWithZod(form, { schema: gradeRequestSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const refused = await replyOnHttpError(
    () => consume(limits.order, `grade:${clientIp(request, context)}`),
    (error) => data({ result: submission.reply({ formErrors: [error.message] }) }, httpErrorInit(error)),
  );
  if (refused) return refused;
  const grade = await createGrade(submission.value);
  const cookie = await gradeContactHeader({ gradeId: grade.id, name: submission.value.name, email: submission.value.email });
  return redirect(`/grade/${grade.id}`, cookie ? { headers: { "Set-Cookie": cookie } } : undefined);
}

/** The score of what is filled in so far, or null while a required number is missing. */
function liveScore(form: HTMLFormElement) {
  const formData = new FormData(form);
  const parsed = gradeAnswersSchema.safeParse({
    platforms: formData.getAll("answers.platforms"),
    followers: formData.get("answers.followers") || undefined,
    avgLikes: formData.get("answers.avgLikes") || undefined,
    avgComments: formData.get("answers.avgComments") || undefined,
    postsPerWeek: formData.get("answers.postsPerWeek") || undefined,
    bioComplete: formData.get("answers.bioComplete") ?? undefined,
    linkInBio: formData.get("answers.linkInBio") ?? undefined,
    brandedVisuals: formData.get("answers.brandedVisuals") ?? undefined,
    videoShare: formData.get("answers.videoShare") ?? undefined,
    replyTime: formData.get("answers.replyTime") ?? undefined,
  });
  return parsed.success ? gradeAnswers(parsed.data) : null;
}

export default function GradePage() {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = useIsPending();
  const [live, setLive] = useState<ReturnType<typeof liveScore>>(null);
  const [form, fields] = useForm({
    id: "grade",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    constraint: getZodConstraint(gradeRequestSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: gradeRequestSchema }),
  });
  const answers = fields.answers.getFieldset();
  const gradeFields: GradeFields = { answers, email: fields.email, name: fields.name };

  return (
    <>
      <SiteHeader user={null} />
      <main id="main" className="bg-slate-50">
        <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
          <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase">Free social media grader</p>
          <h1 className="mt-2 text-3xl font-extrabold sm:text-4xl">What would you grade your social media page?</h1>
          <p className="mt-3 text-lg text-slate-700">
            Answer nine quick questions about your main account. You get a grade from A to F, a score for each area and one concrete fix for each, in under a
            minute. No sign-up needed.
          </p>
          <Form
            method="post"
            {...getFormProps(form)}
            onSubmit={form.onSubmit}
            onChange={(event) => setLive(liveScore(event.currentTarget))}
            className="relative mt-8 space-y-8 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-8"
          >
            <HoneypotField id="grade-website" />
            <FormAlert id={form.errorId} errors={form.errors} />
            <GradeForm fields={gradeFields} submitting={submitting} live={live} />
          </Form>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Free Social Media Grader | BrandLift" },
  {
    name: "description",
    content: "Grade your social media page in under a minute: engagement, consistency, profile, visuals, video and responsiveness, each with one concrete fix.",
  },
];
