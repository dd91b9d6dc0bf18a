import { useFetcher } from "@remix-run/react";
import { ShoppingBag } from "lucide-react";
import { useState, type FormEvent } from "react";

import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { Modal } from "~/components/ui/modal";
import { formatCents } from "~/domain/format";

import type { FieldErrorMap } from "./a-la-carte-picker";
import { OrderSummary, type SummaryLine } from "./order-summary";

export type OrderModalProps = {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: string;
  lines: SummaryLine[];
  /**
   * Services the buyer may untick before ordering (the grader's recommendations): checkboxes named
   * `services`, all ticked, instead of the fixed lines; the total follows the ticks.
   */
  choices?: { id: string; name: string; amountCents: number }[];
  /** intent plus what is ordered: services[] (a-la-carte), packages[] (Our Services) or planId. */
  hidden: Record<string, string | string[]>;
  /** Field errors and the inline error text of the last failed submission. */
  errors?: FieldErrorMap;
  formError?: string;
  pending?: boolean;
  defaultValues?: { name?: string; email?: string };
  /** Without JavaScript the close button cannot work, so a plain link back is offered. */
  hydrated: boolean;
  backHref?: string;
};

/**
 * The order modal of the spec: chosen lines with prices, total, name and e-mail, 'Submit Order'.
 * Submit stays disabled while submitting or while either field is blank after trimming.
 */
export function OrderModal({
  open,
  onClose,
  title,
  description,
  lines,
  choices,
  hidden,
  errors,
  formError,
  pending = false,
  defaultValues,
  hydrated,
  backHref = "/",
}: OrderModalProps) {
  const [name, setName] = useState(defaultValues?.name ?? "");
  const [email, setEmail] = useState(defaultValues?.email ?? "");
  const [clientErrors, setClientErrors] = useState<FieldErrorMap | null>(null);
  const [unticked, setUnticked] = useState<Set<string>>(() => new Set());
  const kept = choices?.filter((choice) => !unticked.has(choice.id)) ?? [];
  // With JavaScript the order goes through a fetcher: a failure (no network, the server's refusal)
  // shows inline while the modal, the page and the selection stay; success follows the redirect.
  const fetcher = useFetcher<{ formError?: string; result?: { error?: FieldErrorMap } }>();
  const sent = fetcher.state === "idle" ? fetcher.data : undefined;
  const shown = clientErrors ?? sent?.result?.error ?? errors;
  const busy = pending || fetcher.state !== "idle";
  const inlineError = sent?.formError ?? formError;
  const blank = name.trim() === "" || email.trim() === "";

  // The rules and messages of order-schema.ts, checked with the browser's own validation so the
  // landing page ships no zod; the action parses with the schema and has the last word.
  function validate(event: FormEvent<HTMLFormElement>) {
    const field = (name: string) => event.currentTarget.elements.namedItem(name) as HTMLInputElement;
    const found: FieldErrorMap = {};
    if (choices && kept.length === 0) found.services = ["Please select at least one service."];
    if (!field("name").value.trim()) found.name = ["Name is required"];
    const emailInput = field("email");
    const value = emailInput.value.trim();
    if (!value) found.email = ["Email is required"];
    else if (emailInput.validity.typeMismatch || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) found.email = ["Invalid email address"];
    event.preventDefault();
    if (Object.keys(found).length > 0) {
      setClientErrors(found);
      return;
    }
    setClientErrors(null);
    fetcher.submit(event.currentTarget, { method: "post", action: "/?index" });
  }

  return (
    <Modal open={open} onClose={onClose} title={title} description={description} closeHref={backHref}>
      <fetcher.Form method="post" action="/?index" onSubmit={hydrated ? validate : undefined} noValidate={hydrated} className="space-y-5" aria-label={title}>
        {Object.entries(hidden).flatMap(([key, value]) => [value].flat().map((v) => <input key={`${key}-${v}`} type="hidden" name={key} value={v} />))}
        {choices ? (
          <fieldset className="space-y-2">
            <legend className="mb-2 text-sm font-semibold text-slate-950">Untick anything you do not want</legend>
            {choices.map((choice) => (
              <label key={choice.id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-slate-200 px-4 py-2 text-sm">
                <input
                  type="checkbox"
                  name="services"
                  value={choice.id}
                  defaultChecked
                  className="size-5 accent-brand-700"
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    setUnticked((previous) => {
                      const next = new Set(previous);
                      if (on) next.delete(choice.id);
                      else next.add(choice.id);
                      return next;
                    });
                  }}
                />
                <span className="flex-1 font-medium text-slate-800">{choice.name}</span>
                <span className="font-semibold text-slate-950 tabular-nums">{formatCents(choice.amountCents)}</span>
              </label>
            ))}
            <p className="flex items-baseline justify-between px-4 pt-2">
              <span className="font-semibold text-slate-950">Total</span>
              <span className="text-lg font-bold text-slate-950 tabular-nums" data-testid="order-total">
                {formatCents(kept.reduce((sum, choice) => sum + choice.amountCents, 0))}
              </span>
            </p>
          </fieldset>
        ) : (
          <OrderSummary lines={lines} />
        )}
        <Field id="order-name" label="Name" error={shown?.name}>
          {(control) => <Input {...control} name="name" required autoComplete="name" value={name} onChange={(event) => setName(event.currentTarget.value)} />}
        </Field>
        <Field id="order-email" label="Email" error={shown?.email}>
          {(control) => (
            <Input
              {...control}
              name="email"
              type="email"
              required
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
          )}
        </Field>
        {inlineError || shown?.services?.[0] || shown?.planId?.[0] ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {inlineError ?? shown?.services?.[0] ?? shown?.planId?.[0]}
          </p>
        ) : null}
        <Button type="submit" size="lg" className="w-full" loading={busy} disabled={busy || (hydrated && blank)}>
          {busy ? null : <ShoppingBag aria-hidden="true" className="size-5" />}
          {busy ? "Submitting..." : "Submit Order"}
        </Button>
        <p className="text-center text-xs text-slate-600">You pay on a secure card checkout page. We never see your card details.</p>
        {hydrated ? null : (
          <a href={backHref} className="block text-center text-sm font-semibold text-brand-700 underline-offset-4 hover:underline">
            Back without ordering
          </a>
        )}
      </fetcher.Form>
    </Modal>
  );
}
