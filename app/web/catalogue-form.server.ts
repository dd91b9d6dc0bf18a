import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";

import { moveFormSchema, packagesFormSchema, planFormSchema, SERVICE_INTENTS, serviceFormSchema, type CatalogueIntent } from "~/domain/schemas/catalogue";
import type { z } from "~/domain/zod";
import {
  CatalogueFieldError,
  createService,
  moveService,
  savePackages,
  updatePlan,
  updateService,
  type Actor,
  type CatalogueChange,
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

const SCHEMAS = {
  [SERVICE_INTENTS.create]: serviceFormSchema,
  [SERVICE_INTENTS.update]: serviceFormSchema,
  [SERVICE_INTENTS.packages]: packagesFormSchema,
  [SERVICE_INTENTS.plan]: planFormSchema,
  [SERVICE_INTENTS.move]: moveFormSchema,
} as const;

type Value = z.infer<typeof serviceFormSchema> | z.infer<typeof packagesFormSchema> | z.infer<typeof planFormSchema> | z.infer<typeof moveFormSchema>;

/** Handles a catalogue form whose intent is one of `intents` (each page accepts its own forms only). */
export async function catalogueFormAction(request: Request, intents: readonly CatalogueIntent[]) {
  const user = await requireCatalogueEditor(request);
  const form = await readForm(request);
  const formId = String(form.get("formId") ?? "").slice(0, 80);
  const intent = String(form.get("intent") ?? "") as CatalogueIntent;
  const schema = intents.includes(intent) ? SCHEMAS[intent] : undefined;
  if (!schema) {
    const result: SubmissionResult<string[]> = { status: "error", error: { "": ["Please choose what to change."] } };
    return data({ formId, result }, { status: 400 });
  }
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return data({ formId, result: submission.reply() }, { status: 400 });
  try {
    const { message, location } = await save({ id: user.id, name: user.name }, submission.value as Value);
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

async function save(actor: Actor, value: Value): Promise<{ message: string; location: string }> {
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
