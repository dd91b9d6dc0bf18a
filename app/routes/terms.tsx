import type { MetaFunction } from "@remix-run/node";

import { LegalPage, type LegalSection } from "~/components/legal-page";

const sections: LegalSection[] = [
  {
    title: "Who we are",
    paragraphs: [
      "BrandLift is a social media marketing and branding agency. These terms govern every order placed on this website, whether for an a-la-carte service or a monthly plan. By placing an order you agree to them.",
    ],
  },
  {
    title: "Orders and payment",
    paragraphs: [
      "Prices are shown in US dollars and are charged in full at checkout through our card payment provider. We never see or store your card details. An invoice is e-mailed to you after every payment.",
      "An order is confirmed once the payment succeeds. We then create your client account with the e-mail address you gave and send you a link to set your password.",
    ],
  },
  {
    title: "Delivery",
    paragraphs: [
      "A member of our team contacts you within 24 hours of a confirmed order to book a kickoff and collect what we need. Delivery times stated on a service start once we have received those materials from you.",
      "Reports and deliverables are published in your dashboard, where you can also message the team working on your account.",
    ],
  },
  {
    title: "Monthly plans",
    paragraphs: [
      "Plans renew automatically every month on the date of your first payment until cancelled. There is no minimum term: cancel before the next renewal date and you will not be charged again. Plan credits such as ad credits are used within the month and do not roll over.",
    ],
  },
  {
    title: "Refunds",
    paragraphs: [
      "If we have not started work on an a-la-carte service, you may cancel it for a full refund within 14 days of ordering. Once work has started, we refund any part we cannot deliver. Refunds go back to the original card.",
    ],
  },
  {
    title: "Your content and ours",
    paragraphs: [
      "You keep ownership of the materials you send us and grant us permission to use them to perform the services. Once an invoice is paid, the designs, captions and videos we create for you are yours. We may show finished work in our portfolio unless you ask us not to.",
      "You are responsible for making sure the materials you give us do not infringe anyone else's rights, and for the accounts and pages we manage on your behalf.",
    ],
  },
  {
    title: "Results and liability",
    paragraphs: [
      "Social platforms change their rules and algorithms often, so we cannot guarantee specific follower counts, reach or sales. We do promise careful, professional work. Our total liability for any order is limited to the amount you paid for it.",
    ],
  },
  {
    title: "Changes and contact",
    paragraphs: [
      "We may update these terms; the version on this page at the time of your order applies to that order. Questions? Write to hello@brandlift.agency or use the contact form on our home page.",
    ],
  },
];

export default function Terms() {
  return <LegalPage title="Terms of Service" sections={sections} seeAlso={{ to: "/privacy", label: "Privacy Policy" }} />;
}

export const meta: MetaFunction = () => [
  { title: "Terms of Service | BrandLift" },
  { name: "description", content: "The terms that apply to BrandLift orders, monthly plans, delivery and refunds." },
];
