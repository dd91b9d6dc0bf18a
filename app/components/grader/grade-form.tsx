import type { FieldMetadata } from "@conform-to/react";

import { inputProps } from "~/components/auth/conform";
import { Button } from "~/components/ui/button";
import { Field, FieldError, Input } from "~/components/ui/input";
import { CHOICE_LABELS, PLATFORM_LABELS, PLATFORMS, REPLY_TIMES, VIDEO_SHARES, VISUALS, type GradeAnswers, type GradeResult } from "~/domain/grader";

type Answers = { [K in keyof GradeAnswers]: FieldMetadata<unknown> };
export interface GradeFields {
  answers: Answers;
  email: FieldMetadata<unknown>;
  name: FieldMetadata<unknown>;
}

const DEFAULTS = { brandedVisuals: "sometimes", videoShare: "none", replyTime: "days" } as const;

function initial(field: FieldMetadata<unknown>): string[] {
  const value = field.initialValue as unknown;
  if (Array.isArray(value)) return value.map(String);
  return typeof value === "string" ? [value] : [];
}

function Choice({ field, legend, options }: { field: FieldMetadata<unknown>; legend: string; options: ReadonlyArray<[string, string]> }) {
  const chosen = initial(field)[0] ?? DEFAULTS[field.name.split(".")[1] as keyof typeof DEFAULTS];
  return (
    <fieldset aria-describedby={field.errors ? `${field.id}-error` : undefined}>
      <legend className="text-sm font-semibold text-slate-800">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {options.map(([value, label]) => (
          <label
            key={value}
            className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full border border-slate-300 px-4 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-800 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
          >
            <input type="radio" name={field.name} value={value} defaultChecked={chosen === value} className="size-4 accent-brand-600" />
            {label}
          </label>
        ))}
      </div>
      <FieldError id={`${field.id}-error`} errors={field.errors} className="mt-1" />
    </fieldset>
  );
}

function NumberField({ field, label, hint, min = 0 }: { field: FieldMetadata<unknown>; label: string; hint?: string; min?: number }) {
  const input = inputProps(field, { type: "number" });
  return (
    <Field id={field.id} label={label} hint={hint} error={field.errors}>
      <Input key={input.key} {...input.props} min={min} max={1_000_000_000} step="any" inputMode="numeric" />
    </Field>
  );
}

/** The questionnaire's fields, shared by the page (plain form) and its live score. */
export function GradeForm({ fields, submitting, live }: { fields: GradeFields; submitting: boolean; live: GradeResult | null }) {
  const { answers } = fields;
  const platforms = initial(answers.platforms);
  const email = inputProps(fields.email, { type: "email" });
  const name = inputProps(fields.name, { type: "text" });
  const yesNo = (field: FieldMetadata<unknown>, label: string) => (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm text-slate-800">
      <input type="checkbox" name={field.name} defaultChecked={initial(field)[0] === "on"} className="size-5 accent-brand-600" />
      {label}
    </label>
  );
  return (
    <>
      <fieldset>
        <legend className="text-sm font-semibold text-slate-800">Where do you post? The first one you tick is graded.</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {PLATFORMS.map((platform) => (
            <label
              key={platform}
              className="inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-full border border-slate-300 px-4 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
            >
              <input
                type="checkbox"
                name={answers.platforms.name}
                value={platform}
                defaultChecked={platforms.length ? platforms.includes(platform) : platform === "instagram"}
                className="size-4 accent-brand-600"
              />
              {PLATFORM_LABELS[platform]}
            </label>
          ))}
        </div>
        <FieldError id={`${answers.platforms.id}-error`} errors={answers.platforms.errors} className="mt-1" />
      </fieldset>

      <div className="grid gap-5 sm:grid-cols-2">
        <NumberField field={answers.followers} label="Followers" min={1} />
        <NumberField field={answers.postsPerWeek} label="Posts per week" />
        <NumberField field={answers.avgLikes} label="Average likes per post" />
        <NumberField field={answers.avgComments} label="Average comments per post" />
      </div>

      <fieldset className="space-y-1">
        <legend className="text-sm font-semibold text-slate-800">Your profile</legend>
        {yesNo(answers.bioComplete, "My bio says who I help and how")}
        {yesNo(answers.linkInBio, "My bio links to where people can buy or book")}
      </fieldset>

      <Choice
        field={answers.brandedVisuals}
        legend="Do your posts follow your brand's colours, fonts and style?"
        options={VISUALS.map((v) => [v, CHOICE_LABELS.brandedVisuals[v]])}
      />
      <Choice field={answers.videoShare} legend="How many of your posts are video?" options={VIDEO_SHARES.map((v) => [v, CHOICE_LABELS.videoShare[v]])} />
      <Choice
        field={answers.replyTime}
        legend="How fast do you answer comments and messages?"
        options={REPLY_TIMES.map((v) => [v, CHOICE_LABELS.replyTime[v]])}
      />

      <div className="grid gap-5 border-t border-slate-200 pt-6 sm:grid-cols-2">
        <Field id={fields.email.id} label="E-mail (optional)" hint="We send you the report. Nothing else without asking." error={fields.email.errors}>
          <Input key={email.key} {...email.props} autoComplete="email" placeholder="you@company.com" />
        </Field>
        <Field id={fields.name.id} label="Name (optional)" error={fields.name.errors}>
          <Input key={name.key} {...name.props} autoComplete="name" />
        </Field>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-4">
        <p aria-live="polite" className="text-base text-slate-700">
          {live ? (
            <>
              Your score so far:{" "}
              <strong className="text-slate-950">
                {live.score}/100 ({live.overall})
              </strong>
            </>
          ) : null}
        </p>
        <Button type="submit" size="lg" loading={submitting}>
          Get my grade
        </Button>
      </div>
    </>
  );
}
