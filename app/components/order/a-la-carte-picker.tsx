import { Form, useRevalidator } from "@remix-run/react";
import { ArrowRight } from "lucide-react";
import { useEffect, useRef, useState } from "react";

import { SectionHeading } from "~/components/landing/section-heading";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { SectionError } from "~/components/ui/section-error";
import type { ServiceOffer } from "~/domain/catalogue";
import { formatCents } from "~/domain/format";
import { ORDER_INTENT } from "~/domain/order-intents";
import type { Section } from "~/domain/section";

/** The picker's text when the catalogue could not be read. */
export const SERVICES_FAILED = "Failed to load services";

export type FieldErrorMap = Record<string, string[] | null | undefined>;

type AlaCartePickerProps = {
  /** The catalogue, or `{ ok: false }` when it could not be read: then this section says so, with Retry. */
  services: Section<ServiceOffer[]>;
  /** With JavaScript, Continue opens the order modal; without it this section is the whole order form. */
  hydrated: boolean;
  onContinue: (selected: ServiceOffer[]) => void;
  /** A failed submission of the no-JavaScript form. */
  errors?: FieldErrorMap;
  formError?: string;
  defaultValues?: { name?: string; email?: string; services?: string[] };
  pending?: boolean;
};

/** 'A-La-Carte Services': one checkbox per catalogue service, three columns on wide screens. */
export function AlaCartePicker({ services: loaded, hydrated, onContinue, errors, formError, defaultValues, pending = false }: AlaCartePickerProps) {
  // Retry loads the page's data again (its loader, as the page itself reads it).
  const revalidator = useRevalidator();
  const retrying = revalidator.state !== "idle";
  const services = loaded.ok ? loaded.data : [];
  const failed = !loaded.ok;
  const retry = () => revalidator.revalidate();
  const [selected, setSelected] = useState<Set<string>>(() => new Set(defaultValues?.services ?? []));
  const toggle = (id: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  // A box ticked before hydration (or restored by the browser on Back) is in the DOM but not in the
  // state: the picker starts from the form as the browser holds it, and reads it again on a restore.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const readTicks = () => {
      const form = formRef.current;
      if (!form) return;
      const ticked = [...form.querySelectorAll<HTMLInputElement>('input[name="services"]')].filter((box) => box.checked).map((box) => box.value);
      setSelected(new Set(ticked));
    };
    readTicks();
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) readTicks();
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);
  const chosen = services.filter((service) => selected.has(service.id));
  const servicesError = errors?.services?.[0];
  // Every message of a refused post, once, in the order of the form.
  const problems = [...new Set([servicesError, errors?.name?.[0], errors?.email?.[0], formError].filter((m): m is string => !!m))];

  return (
    <section id="a-la-carte" aria-labelledby="a-la-carte-heading" className="render-when-near scroll-mt-20 py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading id="a-la-carte-heading" eyebrow="Build your own" title="A-La-Carte Services">
          Pick exactly what you need, pay once, and we start within 24 hours. No subscription required.
        </SectionHeading>
        {failed ? (
          <SectionError message={SERVICES_FAILED} retryHref="/#a-la-carte" onRetry={retry} retrying={retrying} className="mt-12" />
        ) : (
          // The fragment brings a page that answers a no-JavaScript post back to this form, whose first
          // lines say what to fix: the fields' own messages sit 12 services further down.
          <Form
            ref={formRef}
            method="post"
            action="/?index#a-la-carte-form"
            id="a-la-carte-form"
            className="mt-12 scroll-mt-24"
            aria-labelledby="a-la-carte-heading"
          >
            <input type="hidden" name="intent" value={ORDER_INTENT} />
            {!hydrated && problems.length > 0 ? (
              <div role="alert" aria-labelledby="a-la-carte-problems" className="mb-6 rounded-card border border-red-200 bg-red-50 p-4 text-sm text-red-800">
                <p id="a-la-carte-problems" className="font-semibold">
                  Your order was not sent:
                </p>
                <ul className="mt-1 list-disc pl-5">
                  {problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            <fieldset aria-describedby={servicesError ? "a-la-carte-error" : undefined}>
              <legend className="sr-only">Choose one or more services</legend>
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
                {services.map((service) => {
                  const id = `service-${service.id}`;
                  return (
                    <li key={service.id}>
                      <label
                        htmlFor={id}
                        className="flex h-full min-h-16 cursor-pointer items-start gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs transition-colors hover:border-brand-600 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600"
                      >
                        <input
                          id={id}
                          type="checkbox"
                          name="services"
                          value={service.id}
                          defaultChecked={selected.has(service.id)}
                          onChange={(event) => toggle(service.id, event.currentTarget.checked)}
                          className="mt-0.5 size-5 shrink-0 cursor-pointer accent-brand-600 focus-visible:outline-none"
                        />
                        <span className="min-w-0 flex-1">
                          <span className="flex items-baseline justify-between gap-3">
                            <span className="font-semibold text-slate-950">{service.name}</span>
                            <span className="font-semibold text-brand-700 tabular-nums">{formatCents(service.priceCents, service.currency)}</span>
                          </span>
                          {service.description ? <span className="mt-1 line-clamp-2 block text-sm text-slate-600">{service.description}</span> : null}
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
            {servicesError ? (
              <p id="a-la-carte-error" role="alert" className="mt-4 text-sm font-medium text-red-700">
                {servicesError}
              </p>
            ) : null}

            {hydrated ? (
              <div className="mt-8 flex flex-col items-center gap-3">
                <p aria-live="polite" className="text-sm text-slate-600">
                  {chosen.length === 0
                    ? "Tick at least one service to continue."
                    : `${chosen.length} selected · ${formatCents(chosen.reduce((sum, s) => sum + s.priceCents, 0))}`}
                </p>
                <Button type="button" size="lg" disabled={chosen.length === 0} onClick={() => onContinue(chosen)}>
                  Continue
                  <ArrowRight aria-hidden="true" className="size-5" />
                </Button>
              </div>
            ) : (
              <div className="mx-auto mt-10 max-w-xl rounded-card border border-slate-200 bg-white p-6 shadow-card">
                <h3 className="text-lg font-semibold text-slate-950">Your details</h3>
                <p className="mt-1 text-sm text-slate-600">We send your order confirmation and invoice to this e-mail.</p>
                <div className="mt-5 grid gap-5 sm:grid-cols-2">
                  <Field id="picker-name" label="Name" error={errors?.name}>
                    {(control) => <Input {...control} name="name" required autoComplete="name" defaultValue={defaultValues?.name} />}
                  </Field>
                  <Field id="picker-email" label="Email" error={errors?.email}>
                    {(control) => <Input {...control} name="email" type="email" required autoComplete="email" defaultValue={defaultValues?.email} />}
                  </Field>
                </div>
                {formError ? (
                  <p role="alert" className="mt-4 text-sm font-medium text-red-700">
                    {formError}
                  </p>
                ) : null}
                <Button type="submit" size="lg" className="mt-6 w-full" loading={pending}>
                  {pending ? "Submitting..." : "Continue"}
                </Button>
              </div>
            )}
          </Form>
        )}
      </div>
    </section>
  );
}
