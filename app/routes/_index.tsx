import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { ContactSection } from "~/components/landing/contact";
import { Faq } from "~/components/landing/faq";
import { Hero } from "~/components/landing/hero";
import { OurServices } from "~/components/landing/our-services";
import { findPlan, type Plan } from "~/components/landing/plans";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { SubscriptionOptions } from "~/components/landing/subscription-options";
import { WhyChooseUs } from "~/components/landing/why-choose-us";
import { AlaCartePicker, type FieldErrorMap, type PickerService } from "~/components/order/a-la-carte-picker";
import { OrderModal } from "~/components/order/order-modal";
import { CONTACT_INTENT, ORDER_INTENT, packageKey, PLAN_INTENT } from "~/components/order/order-intents";
import { contactFormSchema, orderFormSchema, planFormSchema } from "~/components/order/order-schema";
import { PlanOrderModal } from "~/components/order/plan-order-modal";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/components/ui/use-hydrated";
import { createContactMessage } from "~/models/contact.server";
import { createPlanOrder, createServicesOrder } from "~/models/orders.server";
import { listActiveServices, toServiceJson } from "~/models/services.server";
import { getOptionalUser } from "~/utils/auth.server";
import { checkHoneypot } from "~/utils/honeypot.server";
import { HttpError } from "~/utils/http.server";
import { clientIp, consume, limits } from "~/utils/rate-limit.server";
import { createToastHeaders } from "~/utils/toast.server";

/*
 * The landing page. Its loader sets no cookie for a signed-out visitor, so server.ts can serve
 * the rendered page from its short cache. The action takes three forms: an a-la-carte order
 * (picker or modal, the same fields), a plan order, and the contact form.
 */

export async function loader({ request }: LoaderFunctionArgs) {
  const [services, user] = await Promise.all([listActiveServices(), getOptionalUser(request)]);
  // ?planId= is how "Continue" on a plan opens the plan order form without JavaScript.
  const planId = new URL(request.url).searchParams.get("planId");
  return {
    services: services.map(toServiceJson),
    user: user ? { name: user.name } : null,
    selectedPlanId: planId && findPlan(planId) ? planId : null,
  };
}

type Intent = typeof ORDER_INTENT | typeof PLAN_INTENT | typeof CONTACT_INTENT;
type Reply = { error?: FieldErrorMap; initialValue?: Record<string, unknown> | null };
interface LandingActionData {
  intent: Intent;
  result: Reply;
  sent: boolean;
  /** The inline error text of the order modal ('Network error. Please try again.' …). */
  formError?: string;
  planId?: string;
}

const respond = (body: LandingActionData, init?: ResponseInit) => data<LandingActionData>(body, init);
const failure = (intent: Intent, result: Reply, status: number, extra: { formError?: string; planId?: string } = {}) =>
  respond({ intent, result, sent: false, ...extra }, { status });
const toReply = (submission: { reply: (options?: { formErrors?: string[] }) => unknown }, formErrors?: string[]) =>
  submission.reply(formErrors ? { formErrors } : undefined) as Reply;

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === CONTACT_INTENT) {
    checkHoneypot(form);
    const submission = parseWithZod(form, { schema: contactFormSchema });
    if (submission.status !== "success") return failure(CONTACT_INTENT, toReply(submission), 400);
    try {
      await consume(limits.contact, `ip:${clientIp(request, context)}`);
    } catch (error) {
      if (error instanceof HttpError) return failure(CONTACT_INTENT, toReply(submission, [error.message]), error.status, { formError: error.message });
      throw error;
    }
    await createContactMessage(submission.value);
    const headers = await createToastHeaders({ type: "success", message: "Thank you for your message! We will reply within one business day." });
    return respond({ intent: CONTACT_INTENT, result: toReply(submission), sent: true }, { headers });
  }

  const isPlan = intent === PLAN_INTENT;
  const submission = isPlan ? parseWithZod(form, { schema: planFormSchema }) : parseWithZod(form, { schema: orderFormSchema });
  const planId = isPlan ? String(form.get("planId") ?? "") : undefined;
  if (submission.status !== "success") return failure(isPlan ? PLAN_INTENT : ORDER_INTENT, toReply(submission), 400, { planId });
  try {
    await consume(limits.order, `ip:${clientIp(request, context)}`);
    const value = submission.value;
    const buyer = { name: value.name, email: value.email };
    const started =
      value.intent === PLAN_INTENT ? await createPlanOrder(buyer, value.planId) : await createServicesOrder(buyer, value.services, value.packages);
    return redirect(started.checkoutUrl);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return failure(isPlan ? PLAN_INTENT : ORDER_INTENT, toReply(submission, [error.message]), error.status, { formError: error.message, planId });
  }
}

type OrderFlow = { kind: "services"; services: PickerService[] } | { kind: "package"; key: string; name: string; priceCents: number } | null;

export default function Index() {
  const { services, user, selectedPlanId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const submittingIntent = navigation.state !== "idle" && navigation.formMethod === "POST" ? navigation.formData?.get("intent") : null;
  const [flow, setFlow] = useState<OrderFlow>(null);
  const [planId, setPlanId] = useState<string | null>(selectedPlanId ?? actionData?.planId ?? null);

  const orderFailure = actionData?.intent === ORDER_INTENT ? actionData : undefined;
  const planFailure = actionData?.intent === PLAN_INTENT ? actionData : undefined;
  const contactResult = actionData?.intent === CONTACT_INTENT ? actionData : undefined;
  const lastValues = (actionData?.result.initialValue ?? {}) as { name?: string; email?: string; services?: string | string[] };

  const continuePlan = (plan: Plan) => (
    <Button type="button" size="lg" variant={plan.highlighted ? "primary" : "outline"} className="w-full" onClick={() => setPlanId(plan.id)}>
      Continue<span className="sr-only"> with {plan.title}</span>
    </Button>
  );

  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader user={user} />
      <main className="flex-1">
        <Hero user={user} />
        <AlaCartePicker
          services={services}
          hydrated={hydrated}
          onContinue={(chosen) => setFlow({ kind: "services", services: chosen })}
          errors={orderFailure?.result.error}
          formError={orderFailure?.formError}
          defaultValues={{ name: lastValues.name, email: lastValues.email, services: [lastValues.services ?? []].flat() }}
          pending={submittingIntent === ORDER_INTENT}
        />
        <OurServices
          onOrderNow={(service, servicePackage) =>
            setFlow({
              kind: "package",
              key: packageKey({ serviceId: service.id, packageName: servicePackage.name }),
              name: `${service.title} (${servicePackage.name})`,
              priceCents: Math.round(Number(servicePackage.price) * 100),
            })
          }
        />
        {/* Without JavaScript each plan's Continue is a GET submit to ?planId=…, which opens the plan form. */}
        <Form method="get" action="/" preventScrollReset>
          <SubscriptionOptions renderContinue={hydrated ? continuePlan : undefined} />
        </Form>
        <WhyChooseUs />
        <Faq />
        <ContactSection
          FormComponent={Form}
          action="/?index"
          errors={contactResult?.result.error}
          defaultValues={contactResult && !contactResult.sent ? (contactResult.result.initialValue as Record<string, string> | undefined) : undefined}
          pending={submittingIntent === CONTACT_INTENT}
          sent={contactResult?.sent === true}
        />
      </main>
      <SiteFooter />

      <OrderModal
        open={flow !== null}
        onClose={() => setFlow(null)}
        title="Complete your order"
        lines={
          flow?.kind === "services"
            ? flow.services.map((s) => ({ name: s.name, amountCents: Math.round(s.price * 100) }))
            : flow?.kind === "package"
              ? [{ name: flow.name, amountCents: flow.priceCents }]
              : []
        }
        hidden={
          flow?.kind === "package"
            ? { intent: ORDER_INTENT, packages: flow.key }
            : { intent: ORDER_INTENT, services: flow?.kind === "services" ? flow.services.map((s) => s._id) : [] }
        }
        errors={hydrated ? orderFailure?.result.error : undefined}
        formError={hydrated ? orderFailure?.formError : undefined}
        pending={submittingIntent === ORDER_INTENT}
        hydrated={hydrated}
      />
      <PlanOrderModal
        planId={planId}
        onClose={() => setPlanId(null)}
        errors={planFailure?.result.error}
        formError={planFailure?.formError}
        pending={submittingIntent === PLAN_INTENT}
        defaultValues={{ name: lastValues.name, email: lastValues.email }}
        hydrated={hydrated}
        backHref="/#subscription-options"
      />
    </div>
  );
}

export const meta: MetaFunction = () => [
  { title: "BrandLift | Social media marketing and branding agency" },
  {
    name: "description",
    content:
      "BrandLift audits, designs and runs social media for growing brands. Order a-la-carte services or a monthly plan from $49 and hear from a strategist within 24 hours.",
  },
  { property: "og:title", content: "BrandLift | Social media marketing and branding agency" },
  { property: "og:type", content: "website" },
];
