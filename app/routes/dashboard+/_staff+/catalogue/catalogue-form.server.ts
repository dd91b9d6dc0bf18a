import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import type { BriefQuestion } from "~/domain/brief";
import { BRIEF_QUESTIONS_INTENT, briefQuestionsFormSchema } from "~/domain/schemas/brief-forms";
import { moveFormSchema, packagesFormSchema, planFormSchema, SERVICE_INTENTS, serviceFormSchema, type CatalogueIntent } from "~/domain/schemas/catalogue";
import { z } from "~/domain/zod";
import { setBriefQuestions, type BriefSubject } from "~/models/briefs.server";
import {
  CatalogueFieldError,
  createService,
  moveService,
  savePackages,
  updatePlan,
  updateService,
  type CatalogueChange,
  type CatalogueEditor,
} from "~/models/catalogue.server";
import { HttpError } from "~/utils/http.server";
import { readForm } from "~/web/body-limit.server";
import { requireCatalogueEditor } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * The catalogue editor's forms (the services table, a service's page, a plan's page) post here
 * through their route's action (the answer is components/catalogue/forms.tsx's CatalogueReply): one zod schema per form (the same conform uses in the browser),
 * then the model. A refused field answers 400/409 with the message under that field (`formId`
 * says which form, as a page may hold two); a saved form redirects with a toast.
 */

/** Each catalogue form's schema by its intent (the service form's one schema split by its two pages). */
const FORMS = {
  [SERVICE_INTENTS.create]: serviceFormSchema.extend({ intent: z.literal(SERVICE_INTENTS.create) }),
  [SERVICE_INTENTS.update]: serviceFormSchema.extend({ intent: z.literal(SERVICE_INTENTS.update) }),
  [SERVICE_INTENTS.packages]: packagesFormSchema,
  [SERVICE_INTENTS.plan]: planFormSchema,
  [SERVICE_INTENTS.move]: moveFormSchema,
  [BRIEF_QUESTIONS_INTENT]: briefQuestionsFormSchema,
} as const;

type PageForm = (typeof FORMS)[keyof typeof FORMS];
type Value = z.output<Exclude<PageForm, typeof briefQuestionsFormSchema>>;
const UNKNOWN_FORM = "Please choose what to change.";

/**
 * Handles the catalogue forms of one page, `intents` (each page accepts its own forms only), parsed
 * once through their union; `brief`: the page also holds the brief questions of this service or plan.
 */
export async function catalogueFormAction(request: Request, intents: readonly CatalogueIntent[], brief?: { subject: BriefSubject; id: string }) {
  const user = await requireCatalogueEditor(request);
  const form = await readForm(request);
  const formId = String(form.get("formId") ?? "").slice(0, 80);
  const pageIntents: (keyof typeof FORMS)[] = brief ? [...intents, BRIEF_QUESTIONS_INTENT] : [...intents];
  const options = pageIntents.map((intent) => FORMS[intent]) as [PageForm, ...PageForm[]];
  const submission = parseWithZod(form, { schema: z.discriminatedUnion("intent", options, { error: UNKNOWN_FORM }) });
  if (submission.status !== "success") {
    // A form this page does not hold is refused above its forms, not under a field it does not show.
    const unknown = submission.error?.intent;
    const result = unknown ? submission.reply({ formErrors: unknown }) : submission.reply();
    const briefStep = submission.payload.intent === BRIEF_QUESTIONS_INTENT && submission.status !== "error";
    return data({ formId, result }, { status: briefStep ? 200 : 400 });
  }
  const value = submission.value;
  if (value.intent === BRIEF_QUESTIONS_INTENT)
    return saveBriefQuestions(user, value.questions, (message) => submission.reply({ formErrors: [message] }), formId, brief!);
  try {
    const { message, location } = await save({ id: user.id, name: user.name }, value);
    return redirectWithToast(location, { type: "success", message });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const result =
      error instanceof CatalogueFieldError
        ? submission.reply({ fieldErrors: { [error.field]: [error.message] } })
        : submission.reply({ formErrors: [error.message] });
    return data({ formId, result }, { status: error.status });
  }
}

const servicePage = (id: string) => `/dashboard/catalogue/services/${id}`;

/**
 * The brief editor: conform's add, remove and move buttons post here too (without JavaScript), and
 * come back with the list changed and nothing saved (above); "Save questions" saves them all at once.
 */
async function saveBriefQuestions(
  user: Awaited<ReturnType<typeof requireCatalogueEditor>>,
  questions: BriefQuestion[],
  refuse: (message: string) => SubmissionResult<string[]>,
  formId: string,
  brief: { subject: BriefSubject; id: string },
) {
  try {
    const saved = await setBriefQuestions(user, brief.subject, brief.id, questions);
    const page = brief.subject === "service" ? servicePage(brief.id) : `/dashboard/catalogue/plans/${brief.id}`;
    const message = saved.length === 0 ? "The brief was removed: later buyers get none." : "The brief questions were saved.";
    return redirectWithToast(`${page}#brief-heading`, { type: "success", message });
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return data({ formId, result: refuse(error.message) }, { status: error.status });
  }
}

async function save(actor: CatalogueEditor, value: Value): Promise<{ message: string; location: string }> {
  switch (value.intent) {
    case SERVICE_INTENTS.create:
    case SERVICE_INTENTS.update: {
      const input = {
        name: value.name,
        description: value.description ?? null,
        priceCents: value.price,
        active: value.active === "on",
        sortOrder: value.displayOrder,
      };
      if (value.intent === SERVICE_INTENTS.create) {
        const service = await createService(actor, input);
        return { message: `${service.name} was added.`, location: servicePage(service.id) };
      }
      const service = await updateService(actor, value.id ?? "", input);
      return { message: `${service.name} was saved.`, location: servicePage(service.id) };
    }
    case SERVICE_INTENTS.packages: {
      const tiers = value.tiers.map((tier) => ({ name: tier.name, description: tier.description, priceCents: tier.price ?? null, features: tier.features }));
      await savePackages(actor, value.serviceId, tiers);
      return { message: "The packages were saved.", location: servicePage(value.serviceId) };
    }
    case SERVICE_INTENTS.plan: {
      const plan = await updatePlan(actor, value.id, { priceCents: value.price, features: value.features });
      return { message: `${plan.name} was saved.`, location: `/dashboard/catalogue/plans/${plan.id}` };
    }
    case SERVICE_INTENTS.move: {
      const service = await moveService(actor, value.id, value.direction);
      // Back to the row that moved: without JavaScript the page opens scrolled to it.
      return { message: `${service.name} moved ${value.direction}.`, location: `/dashboard/catalogue#service-${service.id}` };
    }
  }
}

/** A change as the change log shows it (components/catalogue/change-log.tsx): dates as ISO text. */
export const toChangeLogEntry = (change: CatalogueChange) => ({ ...change, before: change.before ?? null, createdAt: change.createdAt.toISOString() });
