import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation, type ClientActionFunctionArgs } from "@remix-run/react";
import { memo, useCallback, useState } from "react";

import { ContactSection } from "~/components/landing/contact";
import { Faq } from "~/components/landing/faq";
import { Hero } from "~/components/landing/hero";
import { OurServices } from "~/components/landing/our-services";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/landing/site-header";
import { SubscriptionOptions } from "~/components/landing/subscription-options";
import { WhyChooseUs } from "~/components/landing/why-choose-us";
import { AlaCartePicker, type FieldErrorMap } from "~/components/order/a-la-carte-picker";
import { OrderModal } from "~/components/order/order-modal";
import { PlanOrderModal } from "~/components/order/plan-order-modal";
import { Button } from "~/components/ui/button";
import { SectionError } from "~/components/ui/section-error";
import { useHydrated } from "~/components/ui/use-hydrated";
import { packageKey, packageLineName, type PackageView, type PlanView, type ServiceOffer, type ShowcaseService } from "~/domain/catalogue";
import { CONTACT_INTENT, ORDER_INTENT, ORDER_NETWORK_ERROR, PLAN_INTENT } from "~/domain/order-intents";
import { landingFormSchema } from "~/domain/schemas/order";
import { getStorefront } from "~/models/catalogue.server";
import { createContactMessage } from "~/models/contact.server";
import { createPlanOrder, createServicesOrder } from "~/models/orders.server";
import { toServiceOffer } from "~/models/services.server";
import { HttpError } from "~/utils/http.server";
import { clientIp, consume, limits } from "~/utils/rate-limit.server";
import { getOptionalUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { replyOnHttpError } from "~/web/form-reply.server";
import { checkHoneypot } from "~/web/honeypot.server";
import { loadSection, sectionHeaders } from "~/web/sections.server";
import { createToastHeaders } from "~/web/toast.server";

/*
 * The page's sections that do not change when it hydrates render once: hydrating flips
 * `useHydrated`, and re-rendering the whole 740-element page for it was the one long task of the
 * page's hydration under a phone's CPU (docs/decisions/332).
 */
const HeaderSection = memo(SiteHeader);
const HeroSection = memo(Hero);
const ServicesSection = memo(OurServices);
const WhySection = memo(WhyChooseUs);
const FaqSection = memo(Faq);
const ContactFormSection = memo(ContactSection);
const FooterSection = memo(SiteFooter);

/*
 * The landing page. Its loader sets no cookie for a signed-out visitor, so server.ts can serve
 * the rendered page from its short cache. The action takes three forms: an a-la-carte order
 * (picker or modal, the same fields), a plan order, and the contact form.
 */

export async function loader({ request }: LoaderFunctionArgs) {
  // Every price on the page comes from the catalogue's one snapshot (app/models/catalogue.server.ts).
  // A catalogue that cannot be read fails only its sections ("Failed to load services"), never the page.
  const [services, showcase, plans, user] = await Promise.all([
    loadSection("services", async () => (await getStorefront()).services.map(toServiceOffer)),
    loadSection("showcase", async () => (await getStorefront()).showcase),
    loadSection("plans", async () => (await getStorefront()).plans),
    getOptionalUser(request),
  ]);
  // Modals open from the URL too, which is how they work without JavaScript (decision 080):
  // ?planId= a plan's order form, ?service= an Our Services card, ?package= a package's order form,
  // ?services= the picker's ticks (a cancelled checkout's way back, decision 172).
  const query = new URL(request.url).searchParams;
  const listed = new Set(services.ok ? services.data.map((service) => service.id) : []);
  const planId = query.get("planId");
  return data(
    {
      services,
      showcase,
      plans,
      user: user ? { name: user.name, email: user.email } : null,
      selectedPlanId: planId && plans.ok && plans.data.some((plan) => plan.key === planId) ? planId : null,
      selectedServiceId: query.get("service"),
      selectedPackage: query.get("package"),
      selectedServices: query.getAll("services").filter((id) => listed.has(id)),
    },
    { headers: sectionHeaders(services, showcase, plans) },
  );
}

export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const cacheControl = loaderHeaders.get("Cache-Control");
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  return headers;
};

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
  const form = await readForm(request);
  checkHoneypot(form);
  const submission = parseWithZod(form, { schema: landingFormSchema });
  const asked = submission.payload.intent;
  // A post naming no form of this page is answered as an order, where the picker shows it.
  const intent: Intent = asked === PLAN_INTENT || asked === CONTACT_INTENT ? asked : ORDER_INTENT;
  const planId = intent === PLAN_INTENT ? String(submission.payload.planId ?? "") : undefined;
  if (submission.status !== "success") return failure(intent, toReply(submission), 400, { planId });
  const value = submission.value;

  if (value.intent === CONTACT_INTENT) {
    const refused = await replyOnHttpError(
      () => consume(limits.contact, `ip:${clientIp(request, context)}`),
      (error) => failure(CONTACT_INTENT, toReply(submission, [error.message]), error.status, { formError: error.message }),
    );
    if (refused) return refused;
    await createContactMessage(value);
    const headers = await createToastHeaders({ type: "success", message: "Thank you for your message! We will reply within one business day." });
    return respond({ intent: CONTACT_INTENT, result: toReply(submission), sent: true }, { headers });
  }

  try {
    await consume(limits.order, `ip:${clientIp(request, context)}`);
    const buyer = { name: value.name, email: value.email };
    const started =
      value.intent === PLAN_INTENT ? await createPlanOrder(buyer, value.planId) : await createServicesOrder(buyer, value.services, value.packages);
    return redirect(started.checkoutUrl);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return failure(intent, toReply(submission, [error.message]), error.status, { formError: error.message, planId });
  }
}

/**
 * In the browser: an order that never reached the server (offline, connection dropped) answers
 * the spec's inline "Network error. Please try again." instead of the error page. The 503 status
 * keeps Remix from reloading the page's data over the same dead connection.
 */
export async function clientAction({ request, serverAction }: ClientActionFunctionArgs) {
  const intent = (await request.clone().formData()).get("intent");
  try {
    return await serverAction<typeof action>();
  } catch (error) {
    // fetch() rejects with a TypeError when no answer arrived; anything else is the server's.
    if (!(error instanceof TypeError)) throw error;
    const body: LandingActionData = {
      intent: intent === PLAN_INTENT || intent === CONTACT_INTENT ? intent : ORDER_INTENT,
      result: {},
      sent: false,
      formError: ORDER_NETWORK_ERROR,
    };
    // A Response, not data(): single fetch wraps a client action's other values in data() again. Remix
    // reads its JSON as the action data, and the page's type names that data, not the Response.
    return new Response(JSON.stringify(body), { status: 503, headers: { "Content-Type": "application/json" } }) as unknown as LandingActionData;
  }
}

type OrderFlow = { kind: "services"; services: ServiceOffer[] } | { kind: "package"; key: string; name: string; priceCents: number } | null;

function packageFlow(service: ShowcaseService, servicePackage: PackageView): OrderFlow {
  return {
    kind: "package",
    key: packageKey({ serviceSlug: service.slug, tier: servicePackage.tier }),
    name: packageLineName(service, servicePackage),
    priceCents: servicePackage.priceCents,
  };
}

/** The package behind `<service slug>:<tier>` (from ?package= or a failed order's fields). */
function findPackageFlow(showcase: ShowcaseService[], key: unknown): OrderFlow {
  if (typeof key !== "string") return null;
  for (const service of showcase) {
    const found = service.packages.find((p) => packageKey({ serviceSlug: service.slug, tier: p.tier }) === key);
    if (found) return packageFlow(service, found);
  }
  return null;
}

export default function Index() {
  const {
    services,
    showcase: showcaseSection,
    plans: planSection,
    user,
    selectedPlanId,
    selectedServiceId,
    selectedPackage,
    selectedServices,
  } = useLoaderData<typeof loader>();
  const showcase = showcaseSection.ok ? showcaseSection.data : [];
  const plans = planSection.ok ? planSection.data : [];
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const submittingIntent = navigation.state !== "idle" && navigation.formMethod === "POST" ? navigation.formData?.get("intent") : null;
  const [flow, setFlow] = useState<OrderFlow>(() => {
    const failed = actionData && "result" in actionData ? (actionData.result.initialValue as { packages?: unknown } | null | undefined) : undefined;
    return findPackageFlow(showcase, selectedPackage) ?? findPackageFlow(showcase, failed?.packages);
  });
  const [planId, setPlanId] = useState<string | null>(selectedPlanId ?? actionData?.planId ?? null);
  // A client-side navigation to ?planId= or ?package= (a GET form submitted while hydrating) opens its modal too.
  const [seenUrlState, setSeenUrlState] = useState({ selectedPlanId, selectedPackage });
  if (seenUrlState.selectedPlanId !== selectedPlanId || seenUrlState.selectedPackage !== selectedPackage) {
    setSeenUrlState({ selectedPlanId, selectedPackage });
    if (selectedPlanId) setPlanId(selectedPlanId);
    const opened = findPackageFlow(showcase, selectedPackage);
    if (opened) setFlow(opened);
  }

  const orderFailure = actionData?.intent === ORDER_INTENT ? actionData : undefined;
  // A package's failed order (without JavaScript) shows in its modal, an a-la-carte one in the picker.
  const packageFailed = !!findPackageFlow(showcase, (orderFailure?.result.initialValue as { packages?: unknown } | null | undefined)?.packages);
  const planFailure = actionData?.intent === PLAN_INTENT ? actionData : undefined;
  const contactResult = actionData?.intent === CONTACT_INTENT ? actionData : undefined;
  const lastValues = (actionData?.result.initialValue ?? {}) as { name?: string; email?: string; services?: string | string[] };

  const orderPackage = useCallback((service: ShowcaseService, servicePackage: PackageView) => setFlow(packageFlow(service, servicePackage)), []);

  const continuePlan = (plan: PlanView, highlighted: boolean) => (
    <Button type="button" size="lg" variant={highlighted ? "primary" : "outline"} className="w-full" onClick={() => setPlanId(plan.key)}>
      Continue<span className="sr-only"> with {plan.name}</span>
    </Button>
  );

  return (
    <div className="flex min-h-screen flex-col">
      <HeaderSection user={user} />
      <main className="flex-1">
        <HeroSection user={user} />
        <AlaCartePicker
          services={services}
          hydrated={hydrated}
          onContinue={(chosen) => setFlow({ kind: "services", services: chosen })}
          errors={packageFailed ? undefined : orderFailure?.result.error}
          formError={packageFailed ? undefined : orderFailure?.formError}
          defaultValues={{
            name: lastValues.name ?? user?.name,
            email: lastValues.email ?? user?.email,
            services: lastValues.services ? [lastValues.services].flat() : selectedServices,
          }}
          pending={submittingIntent === ORDER_INTENT}
        />
        {showcaseSection.ok ? (
          <ServicesSection services={showcase} onOrderNow={orderPackage} openServiceId={selectedServiceId} />
        ) : (
          <section id="our-services" aria-label="Our Services" className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
            <SectionError message="Failed to load services" retryHref="/#our-services" />
          </section>
        )}
        {/* Without JavaScript each plan's Continue is a GET submit to ?planId=…, which opens the plan form. */}
        {planSection.ok ? (
          <Form method="get" action="/" preventScrollReset>
            <SubscriptionOptions plans={plans} renderContinue={hydrated ? continuePlan : undefined} />
          </Form>
        ) : (
          <section id="subscription-options" aria-label="Subscription options" className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
            <SectionError message="Failed to load plans" retryHref="/#subscription-options" />
          </section>
        )}
        <WhySection />
        <FaqSection />
        <ContactFormSection
          FormComponent={Form}
          // Without JavaScript the answer ("Thank you!" or the errors) loads in view, not 7,000 px down.
          action="/?index#send-message"
          errors={contactResult?.result.error}
          defaultValues={contactResult && !contactResult.sent ? (contactResult.result.initialValue as Record<string, string> | undefined) : undefined}
          pending={submittingIntent === CONTACT_INTENT}
          sent={contactResult?.sent === true}
        />
      </main>
      <FooterSection />

      <OrderModal
        open={flow !== null}
        onClose={() => setFlow(null)}
        title="Complete your order"
        lines={
          flow?.kind === "services"
            ? flow.services.map((s) => ({ name: s.name, amountCents: s.priceCents }))
            : flow?.kind === "package"
              ? [{ name: flow.name, amountCents: flow.priceCents }]
              : []
        }
        hidden={
          flow?.kind === "package"
            ? { intent: ORDER_INTENT, packages: flow.key }
            : { intent: ORDER_INTENT, services: flow?.kind === "services" ? flow.services.map((s) => s.id) : [] }
        }
        defaultValues={{ name: user?.name, email: user?.email }}
        errors={hydrated || packageFailed ? orderFailure?.result.error : undefined}
        formError={hydrated || packageFailed ? orderFailure?.formError : undefined}
        pending={submittingIntent === ORDER_INTENT}
        hydrated={hydrated}
        backHref={flow?.kind === "package" ? "/#our-services" : "/#a-la-carte"}
      />
      <PlanOrderModal
        plan={plans.find((plan) => plan.key === planId) ?? null}
        onClose={() => setPlanId(null)}
        errors={planFailure?.result.error}
        formError={planFailure?.formError}
        pending={submittingIntent === PLAN_INTENT}
        defaultValues={{ name: lastValues.name ?? user?.name, email: lastValues.email ?? user?.email }}
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
