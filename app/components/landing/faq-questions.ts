export type FaqQuestion = { question: string; answer: string };
export type FaqTopic = { value: "setup" | "general"; label: string; questions: FaqQuestion[] };

export const faqTopics: FaqTopic[] = [
  {
    value: "setup",
    label: "Setup",
    questions: [
      {
        question: "How do I get started?",
        answer:
          "Pick an a-la-carte service or a monthly plan and check out with your name and e-mail. We create your account automatically, send you a link to set your password, and a strategist contacts you within 24 hours to book a kickoff call.",
      },
      {
        question: "What do you need from me to set up my accounts?",
        answer:
          "Your logo, brand colours and any photos or videos you already love, plus a short questionnaire about your audience and goals. If you do not have brand assets yet, we help you create them.",
      },
      {
        question: "Do I have to share my passwords?",
        answer:
          "No. We ask you to add us as a partner or team member through each platform's business tools, so you keep full ownership and can remove our access at any time.",
      },
      {
        question: "How long until my first posts go live?",
        answer: "Usually within 7 business days of the kickoff call. You approve a first batch of content before anything is published.",
      },
      {
        question: "How do I log in to my dashboard?",
        answer:
          "Use the Login button at the top of the page with the e-mail you ordered with. Your dashboard shows your purchased services, lets you download reports and chat with our team.",
      },
    ],
  },
  {
    value: "general",
    label: "General",
    questions: [
      {
        question: "Which platforms do you manage?",
        answer:
          "Instagram, Facebook, TikTok, LinkedIn, X, Pinterest and YouTube. We recommend focusing on the two or three where your customers spend their time.",
      },
      {
        question: "Who owns the content you create?",
        answer:
          "You do. Once an invoice is paid, every design, caption and video we make for you is yours to keep and reuse, even if you stop working with us.",
      },
      {
        question: "How do you measure results?",
        answer:
          "We track reach, engagement rate, follower growth, link clicks and, where possible, leads and sales. Reports land in your dashboard with plain-language notes on what to do next.",
      },
      {
        question: "Can I change or cancel my plan?",
        answer:
          "Yes. Plans run month to month with no long-term contract. Upgrade, downgrade or cancel before your next billing date and the change applies from the following month.",
      },
      {
        question: "How do payments work?",
        answer:
          "Payments are handled by our card payment provider on a secure hosted checkout page; we never see or store your card details. An invoice arrives by e-mail after every payment.",
      },
    ],
  },
];
