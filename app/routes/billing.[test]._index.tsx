import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";

import { PlanCard } from "~/components/billing/plan-card";
import { Button } from "~/components/ui/button";
import { cn } from "~/components/ui/cn";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { Logo } from "~/components/ui/logo";
import { TestModeBadge } from "~/components/ui/test-mode-badge";
import { formatCents } from "~/domain/format";
import { can } from "~/domain/permissions";
import { formatDate } from "~/domain/purchase";
import { line, z } from "~/domain/zod";
import {
  changeTestSubscription,
  previewTestSwitch,
  retryPayment,
  switchablePlans,
  testBillingPlan,
  testBillingSubscriptions,
  updateTestPaymentMethod,
} from "~/models/billing.server";
import { toSubscription, toSubscriptions } from "~/models/subscriptions.server";
import { HttpError } from "~/utils/http.server";
import { isTestCheckout } from "~/utils/stripe.server";
import { requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /billing/test: the built-in stand-in for Stripe's customer portal, used only when no
 * STRIPE_SECRET_KEY is set (404 otherwise). Cancel at period end, resume, switch plan, and, to
 * try what Stripe would do later, end the period (renewal) or fail the renewal payment. Every
 * button goes through the webhook's own code path with a Stripe-shaped object.
 */

const changeForm = z.object({
  intent: z.enum(["cancel", "resume", "switch", "renew", "fail", "payment-method", "retry"]),
  subscriptionId: z.string().min(1).max(100),
  planKey: line(z.string().max(100), "The plan").optional(),
  cardNumber: line(z.string().max(40), "The card number").optional(),
  // Cancelling and switching ask first (decision 176): only `confirm=yes` changes the plan.
  confirm: z.literal("yes").optional(),
  prorationDate: z.coerce.number().int().positive().optional(),
});

async function guard(request: Request) {
  if (!isTestCheckout()) throw new Response("Not found", { status: 404 });
  const user = await requireUser(request);
  if (!can(user, "billing:manage")) throw new Response("Not found", { status: 404 });
  return user;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await guard(request);
  const subscriptions = await testBillingSubscriptions(user.id);
  return { subscriptions: await toSubscriptions(subscriptions), plans: await switchablePlans(), email: user.email };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await guard(request);
  const submission = parseWithZod(await readForm(request), { schema: changeForm });
  // A card number is never sent back to the page.
  const refuse = (message: string) => submission.reply({ formErrors: [message], hideFields: ["cardNumber"] });
  if (submission.status !== "success") return data({ result: refuse("Please choose what to change.") }, { status: 400 });
  const { intent, subscriptionId, planKey, cardNumber, confirm, prorationDate } = submission.value;
  try {
    if (intent === "cancel" && !confirm) {
      const row = await testBillingPlan(user, subscriptionId);
      return {
        confirm: { intent, subscriptionId, periodEnd: row.currentPeriodEnd?.toISOString() ?? null, plan: (await toSubscription(row)).plan.name },
      };
    }
    if (intent === "switch" && !confirm) return { confirm: { intent, subscriptionId, preview: await previewTestSwitch(user, subscriptionId, planKey ?? "") } };
    const outcome =
      intent === "payment-method"
        ? await updateTestPaymentMethod(user, subscriptionId, cardNumber ?? "")
        : intent === "retry"
          ? await retryPayment(user, subscriptionId)
          : await changeTestSubscription(user, subscriptionId, intent, planKey, prorationDate);
    return redirectWithToast("/billing/test", outcome);
  } catch (error) {
    if (error instanceof HttpError) return data({ result: refuse(error.message) }, { status: error.status });
    throw error;
  }
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export default function TestBilling() {
  const { subscriptions, plans, email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div className="min-h-screen bg-slate-50 px-4 py-10 sm:px-10">
      <main className="mx-auto max-w-3xl space-y-8">
        <div className="flex items-center justify-between gap-3">
          <Logo />
          <TestModeBadge />
        </div>
        <header>
          <h1 className="text-3xl font-bold tracking-tight text-slate-950">Manage billing</h1>
          <p className="mt-2 text-slate-600">
            Signed in as {email}. This is the built-in <strong>test mode</strong> billing page: it stands in for Stripe's customer portal and no card is
            charged.
          </p>
        </header>
        {actionData && "result" in actionData ? (
          <p role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
            {actionData.result.error?.[""]?.join(" ")}
          </p>
        ) : null}
        {actionData && "confirm" in actionData ? <ConfirmChange step={actionData.confirm} busy={busy} /> : null}
        {subscriptions.length === 0 ? (
          <p className="rounded-card border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">You have no plan to manage yet.</p>
        ) : (
          <div className="space-y-6">
            {subscriptions.map((subscription) => {
              const live = subscription.status !== "canceled";
              return (
                <PlanCard
                  key={subscription.id}
                  subscription={subscription}
                  headingLevel={2}
                  showFeatures={false}
                  actions={
                    live ? (
                      <div className="w-full space-y-4">
                        {subscription.status === "past_due" ? <PaymentStep id={subscription.id} disabled={busy} /> : null}
                        <div className="flex flex-wrap gap-2">
                          {subscription.cancelAtPeriodEnd ? (
                            <ChangeButton id={subscription.id} intent="resume" disabled={busy}>
                              Resume plan
                            </ChangeButton>
                          ) : (
                            <ChangeButton id={subscription.id} intent="cancel" variant="outline" danger disabled={busy}>
                              Cancel plan at period end
                            </ChangeButton>
                          )}
                          <ChangeButton id={subscription.id} intent="renew" variant="outline" disabled={busy}>
                            End the period now (simulate)
                          </ChangeButton>
                          <ChangeButton id={subscription.id} intent="fail" variant="outline" disabled={busy}>
                            Fail the renewal payment (simulate)
                          </ChangeButton>
                        </div>
                        <Form method="post" className="flex flex-wrap items-end gap-2">
                          <input type="hidden" name="intent" value="switch" />
                          <input type="hidden" name="subscriptionId" value={subscription.id} />
                          <label className="space-y-1.5 text-sm font-semibold text-slate-800">
                            <span className="block">Switch to</span>
                            <select
                              name="planKey"
                              defaultValue={plans.find((p) => p.key !== subscription.plan.key)?.key}
                              className="min-h-11 rounded-xl border border-slate-300 bg-white px-3 text-sm font-normal"
                            >
                              {plans
                                .filter((plan) => plan.key !== subscription.plan.key)
                                .map((plan) => (
                                  <option key={plan.key} value={plan.key}>
                                    {plan.name} ({formatCents(plan.priceCents)}/mo)
                                  </option>
                                ))}
                            </select>
                          </label>
                          <Button type="submit" variant="outline" disabled={busy}>
                            Switch plan
                          </Button>
                        </Form>
                      </div>
                    ) : null
                  }
                />
              );
            })}
          </div>
        )}
        <Link to="/dashboard" className="inline-flex items-center gap-2 text-sm font-semibold text-brand-700 hover:text-brand-900">
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to your dashboard
        </Link>
      </main>
    </div>
  );
}

/** Stripe's portal's payment-method step, in test mode: a test card pays the failed renewal, 4000 0000 0000 0002 is declined. */
function PaymentStep({ id, disabled }: { id: string; disabled: boolean }) {
  return (
    <section id={`payment-${id}`} aria-labelledby={`payment-heading-${id}`} className="space-y-3 rounded-xl border border-red-200 bg-red-50/50 p-4">
      <h3 id={`payment-heading-${id}`} className="font-semibold text-slate-950">
        Payment method
      </h3>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <input type="hidden" name="intent" value="payment-method" />
        <input type="hidden" name="subscriptionId" value={id} />
        <label className="space-y-1.5 text-sm font-semibold text-slate-800">
          <span className="block">New card number</span>
          <input
            name="cardNumber"
            inputMode="numeric"
            autoComplete="cc-number"
            required
            aria-describedby={`payment-hint-${id}`}
            className="min-h-11 w-64 max-w-full rounded-xl border border-slate-300 bg-white px-3 text-sm font-normal"
          />
        </label>
        <Button type="submit" disabled={disabled}>
          Update card and pay
        </Button>
      </Form>
      <p id={`payment-hint-${id}`} className="text-xs text-slate-600">
        Test mode: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="retry" />
        <input type="hidden" name="subscriptionId" value={id} />
        <Button type="submit" variant="outline" disabled={disabled}>
          Retry payment with the card on file
        </Button>
      </Form>
    </section>
  );
}

function ChangeButton({
  id,
  intent,
  variant,
  danger = false,
  disabled,
  children,
}: {
  id: string;
  intent: string;
  variant?: "outline";
  /** A destructive first step: an outline button in red, never the primary one. */
  danger?: boolean;
  disabled: boolean;
  children: string;
}) {
  return (
    <Form method="post" className="max-w-full">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="subscriptionId" value={id} />
      {/* Phones: a long label wraps inside the card instead of running past its edge. */}
      <Button
        type="submit"
        variant={variant}
        disabled={disabled}
        className={cn("max-w-full py-2 text-center whitespace-normal", danger && "text-red-800 hover:border-red-700 hover:text-red-900")}
      >
        {children}
      </Button>
    </Form>
  );
}

type ChangeStep = Extract<NonNullable<ReturnType<typeof useActionData<typeof action>>>, { confirm: unknown }>["confirm"];

/** The second step of cancelling or switching: what happens, what is charged today and from when. */
function ConfirmChange({ step, busy }: { step: ChangeStep; busy: boolean }) {
  if (step.intent === "cancel") {
    const until = step.periodEnd ? formatDate(step.periodEnd) : "the end of the current period";
    return (
      <ConfirmStep
        title={`Cancel ${step.plan} at the end of the period?`}
        fields={{ intent: "cancel", subscriptionId: step.subscriptionId }}
        confirmLabel="Yes, cancel at period end"
        cancelTo="/billing/test"
        cancelLabel="Keep my plan"
        busy={busy}
      >
        <p>
          You keep {step.plan} until {until}. It does not renew after that and nothing more is charged. Nothing is refunded. You can resume it until then.
        </p>
      </ConfirmStep>
    );
  }
  const { preview } = step;
  const money = (cents: number) => formatCents(cents, preview.currency);
  const from = preview.periodEnd ? formatDate(preview.periodEnd) : "your next renewal";
  return (
    <ConfirmStep
      title={`Switch from ${preview.from.name} to ${preview.to.name}?`}
      fields={{ intent: "switch", subscriptionId: step.subscriptionId, planKey: preview.to.key, prorationDate: String(preview.prorationDate) }}
      confirmLabel={preview.dueNowCents > 0 ? `Switch and pay ${money(preview.dueNowCents)}` : "Switch plan"}
      cancelTo="/billing/test"
      cancelLabel={`Stay on ${preview.from.name}`}
      tone="primary"
      busy={busy}
    >
      <dl className="grid gap-1 sm:grid-cols-[1fr_auto]" data-testid="switch-preview">
        <dt>{preview.to.name} for the rest of this period</dt>
        <dd className="text-right tabular-nums">{money(preview.chargeCents)}</dd>
        <dt>Unused time on {preview.from.name}</dt>
        <dd className="text-right tabular-nums">−{money(preview.creditCents)}</dd>
        <dt className="font-semibold">Charged today</dt>
        <dd className="text-right font-semibold tabular-nums">{money(preview.dueNowCents)}</dd>
      </dl>
      {preview.carriedCreditCents > 0 ? <p>The unused {money(preview.carriedCreditCents)} is taken off your next invoices.</p> : null}
      <p>
        From {from}: {money(preview.to.priceCents)} a month (now {money(preview.from.priceCents)}).
      </p>
    </ConfirmStep>
  );
}

export const meta: MetaFunction = () => [{ title: "Manage billing (test mode) | BrandLift" }, { name: "robots", content: "noindex" }];
