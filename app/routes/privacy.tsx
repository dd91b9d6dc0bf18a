import type { MetaFunction } from "@remix-run/node";

import { LegalPage, type LegalSection } from "~/components/legal-page";

const sections: LegalSection[] = [
  {
    title: "What we collect",
    paragraphs: [
      "When you order: your name, e-mail address and what you bought. Payments are processed by our card payment provider; we receive a confirmation and an invoice reference, never your card number.",
      "When you use your dashboard: the reports we upload for you and the messages you exchange with our team. When you write to us through the contact form: the name, e-mail and message you send.",
    ],
  },
  {
    title: "Why we use it",
    paragraphs: [
      "To deliver the services you ordered, to send you order confirmations, invoices and account e-mails such as password links, to answer your messages, and to keep our records as the law requires. We do not sell your data and we do not use it for advertising.",
    ],
  },
  {
    title: "Cookies",
    paragraphs: [
      "We use one cookie to keep you signed in and one short-lived cookie to show you a confirmation after an action. Both are strictly necessary. We use no advertising or analytics cookies, so there is nothing to opt out of.",
    ],
  },
  {
    title: "Who else sees it",
    paragraphs: [
      "Our payment provider (to take payments and send invoices), our e-mail provider (to deliver our e-mails) and our hosting provider (to run this website). Each processes data only on our instructions.",
    ],
  },
  {
    title: "How long we keep it",
    paragraphs: [
      "Account data for as long as you have an account with us, order and invoice records for as long as tax law requires, and contact-form messages for up to two years.",
    ],
  },
  {
    title: "Your rights",
    paragraphs: [
      "You can ask us for a copy of your data, to correct it, or to delete it, and you can object to how we use it. Write to hello@brandlift.agency and we will answer within 30 days.",
    ],
  },
];

export default function Privacy() {
  return <LegalPage title="Privacy Policy" sections={sections} seeAlso={{ to: "/terms", label: "Terms of Service" }} />;
}

export const meta: MetaFunction = () => [
  { title: "Privacy Policy | BrandLift" },
  { name: "description", content: "What personal data BrandLift collects, why, who else sees it and how to exercise your rights." },
];
