import { getFormProps, getInputProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";

import { Button } from "~/components/ui/button";
import { Field, Input, Textarea } from "~/components/ui/input";
import { useIsPending } from "~/components/ui/use-is-pending";
import { MAX_NAME_LENGTH } from "~/domain/catalogue";
import { packagesFormSchema, planFormSchema, SERVICE_INTENTS, serviceFormSchema } from "~/domain/schemas/catalogue";

/*
 * The catalogue editor's forms, on a service's page and a plan's page. Each is a plain POST to its
 * page (works without JavaScript); with it, conform checks the same zod schema on blur and on
 * submit. The page hands each form the action's reply only when the reply is for that form (`formId`).
 */

/** A form's refusal as the action answers it: which form (a page may hold two) and conform's result for it. */
export interface CatalogueReply {
  formId: string;
  result: SubmissionResult<string[]>;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);
const lastResultFor = (id: string, reply: CatalogueReply | undefined) => (reply?.formId === id ? reply.result : undefined);

const usePending = (formId: string) => useIsPending({ field: { name: "formId", value: formId } });

/* conform's props carry `key`, which React wants passed directly, never spread. */
function TextInput({ meta, type, ...rest }: { meta: FieldMetadata<unknown>; type: "text" | "number"; maxLength?: number; inputMode?: "decimal" }) {
  const { key, ...props } = getInputProps(meta, { type });
  return <Input key={key} {...props} {...rest} />;
}

/** A price typed in dollars ("28.99"); the schema's priceField reads it into cents. */
function PriceField({ meta, label = "Price (USD)", className }: { meta: FieldMetadata<unknown>; label?: string; className?: string }) {
  return (
    <Field id={meta.id} label={label} error={meta.errors} className={className}>
      <TextInput meta={meta} type="text" inputMode="decimal" />
    </Field>
  );
}

function TextArea({ meta, rows }: { meta: FieldMetadata<unknown>; rows?: number }) {
  const { key, ...props } = getTextareaProps(meta);
  return <Textarea key={key} {...props} rows={rows} />;
}

function Checkbox({ meta }: { meta: FieldMetadata<unknown> }) {
  const { key, ...props } = getInputProps(meta, { type: "checkbox" });
  return <input key={key} {...props} className="size-5 rounded border-slate-400 accent-brand-600" />;
}

function FormErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  return (
    <p id={id} role="alert" className="text-sm font-medium text-red-700">
      {errors.join(" ")}
    </p>
  );
}

export interface ServiceFormValues {
  id: string;
  name: string;
  description: string | null;
  priceCents: number;
  active: boolean;
  sortOrder: number;
}

/** Add a service (no `service`) or edit one. */
export function ServiceForm({ service, reply }: { service?: ServiceFormValues; reply?: CatalogueReply }) {
  const formId = service ? `service-${service.id}` : "service-new";
  const [form, fields] = useForm({
    id: formId,
    lastResult: lastResultFor(formId, reply),
    constraint: getZodConstraint(serviceFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: service
      ? {
          name: service.name,
          description: service.description ?? "",
          price: dollars(service.priceCents),
          active: service.active ? "on" : undefined,
          displayOrder: String(service.sortOrder),
        }
      : { active: "on" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: serviceFormSchema }),
  });
  const pending = usePending(formId);
  const label = service ? service.name : "new service";
  return (
    <Form method="post" {...getFormProps(form)} aria-label={service ? `Edit ${service.name}` : "Add a service"} className="grid gap-4 sm:grid-cols-6">
      <input type="hidden" name="formId" value={formId} />
      <input type="hidden" name="intent" value={service ? SERVICE_INTENTS.update : SERVICE_INTENTS.create} />
      {service ? <input type="hidden" name="id" value={service.id} /> : null}
      <div className="sm:col-span-6">
        <FormErrors id={form.errorId} errors={form.errors} />
      </div>
      <Field id={fields.name.id} label="Name" error={fields.name.errors} className="sm:col-span-3">
        <TextInput meta={fields.name} type="text" maxLength={MAX_NAME_LENGTH} />
      </Field>
      <PriceField meta={fields.price} className="sm:col-span-2" />
      <Field id={fields.displayOrder.id} label="Display order" error={fields.displayOrder.errors} className="sm:col-span-1">
        <TextInput meta={fields.displayOrder} type="number" />
      </Field>
      <Field id={fields.description.id} label="Description" error={fields.description.errors} className="sm:col-span-6">
        <TextArea meta={fields.description} rows={3} />
      </Field>
      <div className="flex flex-wrap items-center justify-between gap-3 sm:col-span-6">
        <label className="flex min-h-11 items-center gap-2 text-sm font-semibold text-slate-800">
          <Checkbox meta={fields.active} />
          Active (shown on the landing page and can be ordered)
        </label>
        <Button type="submit" loading={pending}>
          {service ? "Save service" : "Add service"}
          <span className="sr-only">: {label}</span>
        </Button>
      </div>
    </Form>
  );
}

export interface TierValues {
  tier: number;
  name: string;
  description: string;
  priceCents: number | null;
  features: string[];
}

const DEFAULT_TIERS = ["Starter", "Growth", "Premium"];

/** A service's three packages; tier 1 is the service itself at its a-la-carte price. */
export function PackagesForm({
  serviceId,
  serviceName,
  servicePriceCents,
  tiers,
  reply,
}: {
  serviceId: string;
  serviceName: string;
  servicePriceCents: number;
  tiers: TierValues[];
  reply?: CatalogueReply;
}) {
  const formId = `packages-${serviceId}`;
  const [form, fields] = useForm({
    id: formId,
    lastResult: lastResultFor(formId, reply),
    constraint: getZodConstraint(packagesFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      tiers: [0, 1, 2].map((index) => {
        const tier = tiers.find((t) => t.tier === index + 1);
        return {
          name: tier?.name ?? DEFAULT_TIERS[index],
          description: tier?.description ?? "",
          price: index > 0 && tier?.priceCents ? dollars(tier.priceCents) : "",
          features: tier?.features.join("\n") ?? "",
        };
      }),
    },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: packagesFormSchema }),
  });
  const pending = usePending(formId);
  return (
    <Form method="post" {...getFormProps(form)} aria-label={`Packages of ${serviceName}`} className="space-y-4">
      <input type="hidden" name="formId" value={formId} />
      <input type="hidden" name="intent" value={SERVICE_INTENTS.packages} />
      <input type="hidden" name="serviceId" value={serviceId} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 lg:grid-cols-3">
        {fields.tiers.getFieldList().map((tierField, index) => {
          const tier = tierField.getFieldset();
          return (
            <fieldset key={tierField.key} className="space-y-3 rounded-2xl border border-slate-200 p-4">
              <legend className="px-1 text-sm font-semibold text-slate-900">Tier {index + 1}</legend>
              <Field id={tier.name.id} label="Package name" error={tier.name.errors}>
                <TextInput meta={tier.name} type="text" />
              </Field>
              {index === 0 ? (
                <p className="text-sm text-slate-600">Price: the service&apos;s a-la-carte price (${dollars(servicePriceCents)}).</p>
              ) : (
                <PriceField meta={tier.price} />
              )}
              <Field id={tier.description.id} label="Description" error={tier.description.errors}>
                <TextInput meta={tier.description} type="text" />
              </Field>
              <Field id={tier.features.id} label="Features (one per line)" error={tier.features.errors}>
                <TextArea meta={tier.features} rows={5} />
              </Field>
            </fieldset>
          );
        })}
      </div>
      <Button type="submit" variant="outline" loading={pending}>
        Save packages<span className="sr-only"> of {serviceName}</span>
      </Button>
    </Form>
  );
}

export interface PlanFormValues {
  id: string;
  name: string;
  priceCents: number;
  features: string[];
}

export function PlanForm({ plan, reply }: { plan: PlanFormValues; reply?: CatalogueReply }) {
  const formId = `plan-${plan.id}`;
  const [form, fields] = useForm({
    id: formId,
    lastResult: lastResultFor(formId, reply),
    constraint: getZodConstraint(planFormSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { price: dollars(plan.priceCents), features: plan.features.join("\n") },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: planFormSchema }),
  });
  const pending = usePending(formId);
  return (
    <Form method="post" {...getFormProps(form)} aria-label={`Edit ${plan.name}`} className="space-y-4">
      <input type="hidden" name="formId" value={formId} />
      <input type="hidden" name="intent" value={SERVICE_INTENTS.plan} />
      <input type="hidden" name="id" value={plan.id} />
      <FormErrors id={form.errorId} errors={form.errors} />
      <PriceField meta={fields.price} label="Price per month (USD)" />
      <Field id={fields.features.id} label="Features (one per line)" error={fields.features.errors}>
        <TextArea meta={fields.features} rows={6} />
      </Field>
      <Button type="submit" variant="outline" loading={pending}>
        Save plan<span className="sr-only">: {plan.name}</span>
      </Button>
    </Form>
  );
}
