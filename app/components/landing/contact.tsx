import { CircleCheck, Mail, MapPin, Phone, Send } from "lucide-react";
import type { JSXElementConstructor, ReactNode } from "react";

import { SectionHeading } from "~/components/landing/section-heading";
import { SocialLinks } from "~/components/landing/social-links";
import { Button } from "~/components/ui/button";
import { HoneypotField } from "~/components/ui/honeypot";
import { errorText, Field, Input, Textarea } from "~/components/ui/input";
import { CONTACT_INTENT } from "~/domain/order-intents";

export type ContactField = "firstName" | "lastName" | "email" | "message";

/** The subset of form props this section passes; both "form" and Remix's `Form` accept them. */
export type ContactFormProps = {
  method: "post";
  action?: string;
  className?: string;
  "aria-labelledby"?: string;
  children?: ReactNode;
};

export type ContactSectionProps = {
  /** Defaults to a plain "form"; pass Remix's `Form` or a `fetcher.Form`. */
  FormComponent?: "form" | JSXElementConstructor<ContactFormProps>;
  action?: string;
  /** Errors by field name, as conform's reply gives them; `form` or "" holds errors about the whole form. */
  errors?: Record<string, readonly string[] | null | undefined>;
  /** Values to refill after a failed submission. */
  defaultValues?: Partial<Record<ContactField, string>>;
  pending?: boolean;
  /** Shows a confirmation instead of the form. */
  sent?: boolean;
};

const contactDetails = [
  { icon: MapPin, label: "Studio", value: "221 Market Street, Suite 400, San Francisco, CA 94105", href: undefined },
  { icon: Phone, label: "Phone", value: "+1 (415) 555-0137", href: "tel:+14155550137" },
  { icon: Mail, label: "E-mail", value: "hello@brandlift.agency", href: "mailto:hello@brandlift.agency" },
];

export function ContactSection({ FormComponent = "form", action, errors, defaultValues, pending = false, sent = false }: ContactSectionProps) {
  const fieldError = (name: ContactField) => errors?.[name];
  const formError = errorText(errors?.form ?? errors?.[""]);

  return (
    <section id="contact" aria-labelledby="contact-heading" className="render-when-near py-20 sm:py-24">
      <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[0.9fr_1.1fr] lg:gap-16 lg:px-8">
        <div>
          <SectionHeading id="contact-heading" eyebrow="Contact" title="Get in touch" className="mx-0 text-left">
            Tell us where your social media is today and where you want it to be. We answer every message within one business day.
          </SectionHeading>
          <address className="mt-10 not-italic">
            <ul className="space-y-6">
              {contactDetails.map(({ icon: Icon, label, value, href }) => (
                <li key={label} className="flex gap-4">
                  <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
                    <Icon className="size-5" />
                  </span>
                  <div>
                    <p className="text-sm font-semibold text-slate-600">{label}</p>
                    <p className="mt-0.5 text-base text-slate-950">
                      {href ? (
                        <a href={href} className="inline-block py-1 font-medium underline-offset-4 hover:text-brand-700 hover:underline">
                          {value}
                        </a>
                      ) : (
                        value
                      )}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          </address>
          <p className="mt-10 text-sm font-semibold text-slate-600">Follow our work</p>
          <SocialLinks className="mt-3" />
        </div>

        {/* The form's answer loads at #send-message without JavaScript: in view, under the sticky header. */}
        <div id="send-message" className="scroll-mt-24 rounded-card border border-slate-200 bg-white p-6 shadow-card sm:p-8">
          <h3 id="contact-form-heading" className="text-xl font-semibold text-slate-950">
            Send us a message
          </h3>
          {sent ? (
            <p role="status" className="mt-6 flex gap-3 rounded-2xl bg-emerald-50 p-5 text-emerald-900">
              <CircleCheck className="mt-0.5 size-5 shrink-0" />
              Thank you! Your message is on its way, and we will reply within one business day.
            </p>
          ) : (
            <FormComponent method="post" action={action} aria-labelledby="contact-form-heading" className="mt-6">
              <input type="hidden" name="intent" value={CONTACT_INTENT} />
              <HoneypotField id="contact-website" />
              <div className="grid gap-5 sm:grid-cols-2">
                <Field id="contact-first-name" label="First name" error={fieldError("firstName")}>
                  {(control) => <Input {...control} name="firstName" autoComplete="given-name" defaultValue={defaultValues?.firstName} />}
                </Field>
                <Field id="contact-last-name" label="Last name" error={fieldError("lastName")}>
                  {(control) => <Input {...control} name="lastName" autoComplete="family-name" defaultValue={defaultValues?.lastName} />}
                </Field>
                <Field
                  id="contact-email"
                  label={
                    <>
                      E-mail <span className="font-normal text-slate-600">(required)</span>
                    </>
                  }
                  error={fieldError("email")}
                  className="sm:col-span-2"
                >
                  {(control) => <Input {...control} type="email" name="email" required autoComplete="email" defaultValue={defaultValues?.email} />}
                </Field>
                <Field
                  id="contact-message"
                  label={
                    <>
                      Message <span className="font-normal text-slate-600">(required)</span>
                    </>
                  }
                  error={fieldError("message")}
                  className="sm:col-span-2"
                >
                  {(control) => <Textarea {...control} name="message" rows={5} required defaultValue={defaultValues?.message} />}
                </Field>
              </div>
              {formError ? (
                <p role="alert" className="mt-5 text-sm font-medium text-red-700">
                  {formError}
                </p>
              ) : null}
              <Button type="submit" size="lg" loading={pending} className="mt-6 w-full sm:w-auto">
                {pending ? null : <Send className="size-5" />}
                Send
              </Button>
            </FormComponent>
          )}
        </div>
      </div>
    </section>
  );
}
