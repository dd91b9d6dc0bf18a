import auditImage from "~/assets/service-audit.svg";
import contentImage from "~/assets/service-content.svg";
import strategyImage from "~/assets/service-strategy.svg";

export type ServicePackage = {
  name: string;
  /** Dollars as text, e.g. "28.99"; shown as "$28.99". */
  price: string;
  desc: string;
  features: string[];
};

export type SampleService = {
  id: string;
  title: string;
  image: string;
  imageAlt: string;
  rating: number;
  reviewCount: number;
  /** Dollars as text without the sign ("28.99"); the card shows "$28.99". */
  price: string;
  description: string;
  packages: [ServicePackage, ServicePackage, ServicePackage];
};

export const sampleServices: SampleService[] = [
  {
    id: "social-audit",
    title: "Social Media Audit",
    image: auditImage,
    imageAlt: "A profile scorecard with a letter grade and engagement charts",
    rating: 4.8,
    reviewCount: 126,
    price: "28.99",
    description:
      "We grade every public detail of your profiles, from bio and visuals to posting rhythm and engagement, and hand you a clear, prioritised list of fixes you can act on this week.",
    packages: [
      {
        name: "Starter",
        price: "28.99",
        desc: "A sharp health check of one social profile.",
        features: [
          "Audit of one profile on the platform you choose",
          "Letter grade for bio, visuals, consistency and engagement",
          "Top 10 quick wins, ranked by impact",
          "PDF report in your dashboard within 3 business days",
        ],
      },
      {
        name: "Growth",
        price: "59.99",
        desc: "Up to three profiles, benchmarked against your competitors.",
        features: [
          "Audit of up to three profiles",
          "Benchmark against three competitors you name",
          "Best times to post, based on your own audience data",
          "30-minute video call to walk through the findings",
        ],
      },
      {
        name: "Premium",
        price: "99.99",
        desc: "A full-presence review with a 90-day action plan.",
        features: [
          "Every profile you run, plus your link-in-bio page",
          "Hashtag, keyword and content-pillar analysis",
          "90-day action plan with monthly goals",
          "Follow-up audit after 90 days to measure progress",
        ],
      },
    ],
  },
  {
    id: "content-kit",
    title: "Content Creation Kit",
    image: contentImage,
    imageAlt: "A grid of branded social posts with a video play button",
    rating: 4.9,
    reviewCount: 98,
    price: "38.99",
    description:
      "Scroll-stopping posts designed in your brand colours and written in your voice, delivered ready to publish with captions and hashtags included.",
    packages: [
      {
        name: "Starter",
        price: "38.99",
        desc: "A week of ready-to-post content.",
        features: [
          "5 branded post designs for one platform",
          "Captions written in your brand voice",
          "Researched hashtag set for each post",
          "One round of revisions",
        ],
      },
      {
        name: "Growth",
        price: "79.99",
        desc: "Two weeks of content, including short-form video.",
        features: [
          "10 post designs sized for two platforms",
          "2 short-form vertical videos (up to 30 seconds)",
          "Story templates you can reuse",
          "Two rounds of revisions",
        ],
      },
      {
        name: "Premium",
        price: "149.99",
        desc: "A full month of content, planned and scheduled for you.",
        features: [
          "20 post designs across up to three platforms",
          "4 short-form videos with on-screen captions",
          "Content calendar with scheduling done for you",
          "Unlimited revisions within the month",
        ],
      },
    ],
  },
  {
    id: "brand-strategy",
    title: "Brand Strategy Session",
    image: strategyImage,
    imageAlt: "A strategy board with a target, a colour palette and sticky notes",
    rating: 4.7,
    reviewCount: 74,
    price: "50.00",
    description:
      "A focused working session with a senior strategist to define who you are talking to, what makes you different and how that should look and sound online.",
    packages: [
      {
        name: "Starter",
        price: "50.00",
        desc: "A 60-minute session to sharpen your positioning.",
        features: [
          "60-minute video session with a senior strategist",
          "Audience and positioning worksheet, completed together",
          "Written summary with three next steps",
        ],
      },
      {
        name: "Growth",
        price: "129.00",
        desc: "Positioning plus a voice and visual direction.",
        features: [
          "Two 60-minute sessions a week apart",
          "Brand voice guide with do's and don'ts",
          "Moodboard and colour palette for social",
          "Three content pillars tailored to your audience",
        ],
      },
      {
        name: "Premium",
        price: "249.00",
        desc: "A complete social brand playbook for your team.",
        features: [
          "Half-day workshop with your team",
          "Brand playbook: voice, visuals, pillars and post formats",
          "Competitor and audience research brief",
          "60 days of email support while you roll it out",
        ],
      },
    ],
  },
];
