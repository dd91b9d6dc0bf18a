import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft, CreditCard, Lock } from "lucide-react";

import { inputProps } from "~/components/auth/conform";
import { OrderSummary } from "~/components/order/order-summary";
import { Button } from "~/components/ui/button";
import { Field, Input } from "~/components/ui/input";
import { Logo } from "~/components/ui/logo";
import { TestModeBadge } from "~/components/ui/test-mode-badge";
import { formatCents } from "~/domain/format";
import { testCardSchema } from "~/domain/schemas/test-card";
import { z } from "~/domain/zod";
import { cancelCheckoutSession, findOrderBySession, fulfilCheckoutSession, orderLines, testCheckoutSession } from "~/models/orders.server";
import { cancelUrl, isTestCheckout, successUrl } from "~/utils/stripe.server";
import { readForm } from "~/web/body-limit.server";

/*
 * /checkout/test/:sessionId.
 *
 * The built-in test checkout, used only when no STRIPE_SECRET_KEY is set: it
 * stands in for Stripe's hosted page. "Pay" runs the one fulfilment and redirects to the
 * success URL; "Cancel" to the cancel URL. With a Stripe key this route does not exist (404).
 */

async function loadOrder(sessionId: string | undefined) {
  if (!isTestCheckout() || !sessionId || !sessionId.startsWith("cs_test_")) throw new Response("Not found", { status: 404 });
  const order = await findOrderBySession(sessionId);
  if (!order) throw new Response("Not found", { status: 404 });
  return order;
}

/** The page's two buttons: pay with the card's fields, or cancel. */
const checkoutForm = z.discriminatedUnion("intent", [testCardSchema, z.object({ intent: z.literal("cancel") })], { error: "Unknown action." });

export async function loader({ params }: LoaderFunctionArgs) {
  const order = await loadOrder(params.sessionId);
  if (order.status === "paid") throw redirect(successUrl().replace("{CHECKOUT_SESSION_ID}", order.stripeSessionId!));
  return {
    email: order.email,
    name: order.name,
    status: order.status,
    subscription: order.kind === "subscription",
    totalCents: order.totalCents,
    lines: await orderLines(order),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const order = await loadOrder(params.sessionId);
  const submission = parseWithZod(await readForm(request), { schema: checkoutForm });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["cardNumber", "cvc"] }) }, { status: 400 });
  }
  if (submission.value.intent === "cancel") {
    // Stripe would keep the session open until it expires; a test checkout has no expiry, so cancelling ends it.
    await cancelCheckoutSession(testCheckoutSession(order));
    throw redirect(cancelUrl(order.id));
  }
  if (order.status !== "pending") {
    return data(
      { result: submission.reply({ formErrors: ["This checkout has expired. Please start a new order."], hideFields: ["cardNumber", "cvc"] }) },
      { status: 409 },
    );
  }
  await fulfilCheckoutSession(testCheckoutSession(order, true));
  throw redirect(successUrl().replace("{CHECKOUT_SESSION_ID}", order.stripeSessionId!));
}

export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function TestCheckout() {
  const order = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const paying = busy && navigation.formData?.get("intent") === "pay";
  const [form, fields] = useForm({
    id: "test-card",
    lastResult: navigation.state === "idle" ? actionData?.result : undefined,
    constraint: getZodConstraint(testCardSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: checkoutForm }),
  });
  const expired = order.status !== "pending";
  const total = `${formatCents(order.totalCents)}${order.subscription ? " per month" : ""}`;
  const card = inputProps(fields.cardNumber, { type: "text" });
  const expiry = inputProps(fields.expiry, { type: "text" });
  const cvc = inputProps(fields.cvc, { type: "text" });
  const cardholder = inputProps(fields.cardholder, { type: "text" });

  return (
    <div className="min-h-screen bg-white lg:grid lg:grid-cols-2">
      <section aria-labelledby="summary-heading" className="bg-slate-50 px-4 py-10 sm:px-10 lg:py-16">
        <div className="mx-auto max-w-md">
          <div className="flex items-center justify-between gap-3">
            <Logo />
            <TestModeBadge />
          </div>
          <h1 id="summary-heading" className="mt-10 text-base font-medium text-slate-600">
            Pay BrandLift
          </h1>
          <p className="mt-1 text-4xl font-bold tracking-tight text-slate-950 tabular-nums">{total}</p>
          <OrderSummary lines={order.lines} className="mt-8" />
          <p role="note" className="mt-6 rounded-2xl bg-amber-50 p-4 text-sm text-amber-950">
            This is the built-in <strong>test mode</strong> checkout: no real card is charged. Pay with the test card{" "}
            <strong className="whitespace-nowrap">4242 4242 4242 4242</strong>, any future expiry date and any CVC.
          </p>
        </div>
      </section>

      <section aria-labelledby="pay-heading" className="px-4 py-10 sm:px-10 lg:py-16">
        <div className="mx-auto max-w-md">
          <h2 id="pay-heading" className="flex items-center gap-2 text-xl font-semibold text-slate-950">
            <CreditCard aria-hidden="true" className="size-5" />
            Pay with card
          </h2>
          {expired ? (
            <p role="alert" className="mt-6 rounded-2xl bg-red-50 p-4 text-red-800">
              This checkout has expired. Please start a new order from the home page.
            </p>
          ) : (
            <Form method="post" {...getFormProps(form)} className="mt-6 space-y-5">
              <input type="hidden" name="intent" value="pay" />
              {form.errors?.length ? (
                <p id={form.errorId} role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
                  {form.errors.join(" ")}
                </p>
              ) : null}
              <Field id="checkout-email" label="Email">
                <Input id="checkout-email" type="email" value={order.email} readOnly className="bg-slate-50" />
              </Field>
              <Field id={fields.cardNumber.id} label="Card number" error={fields.cardNumber.errors}>
                <Input key={card.key} {...card.props} inputMode="numeric" autoComplete="cc-number" placeholder="1234 1234 1234 1234" />
              </Field>
              <div className="grid grid-cols-2 gap-4">
                <Field id={fields.expiry.id} label="Expiry (MM / YY)" error={fields.expiry.errors}>
                  <Input key={expiry.key} {...expiry.props} inputMode="numeric" autoComplete="cc-exp" placeholder="MM / YY" />
                </Field>
                <Field id={fields.cvc.id} label="CVC" error={fields.cvc.errors}>
                  <Input key={cvc.key} {...cvc.props} inputMode="numeric" autoComplete="cc-csc" />
                </Field>
              </div>
              <Field id={fields.cardholder.id} label="Name on card" error={fields.cardholder.errors}>
                <Input key={cardholder.key} {...cardholder.props} autoComplete="cc-name" />
              </Field>
              <Button type="submit" size="lg" className="w-full" loading={paying} disabled={busy}>
                <Lock aria-hidden="true" className="size-4" />
                {paying ? "Processing..." : `Pay ${total}`}
              </Button>
            </Form>
          )}
          <Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="cancel" />
            <Button type="submit" variant="ghost" className="w-full" disabled={busy}>
              <ArrowLeft aria-hidden="true" className="size-4" />
              Cancel and return to BrandLift
            </Button>
          </Form>
        </div>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () => [{ title: "Checkout (test mode) | BrandLift" }, { name: "robots", content: "noindex" }];
