import { inArray } from "drizzle-orm";

import type { Db } from "./client";
import * as schema from "./schema";

/*
 * The one source of the catalogue's starting content, prices in integer cents: the a-la-carte
 * services (some with their three "Our Services" packages) and the monthly plans. Boot and the
 * tests seed from here; after that the database is the catalogue and staff edit it in
 * /dashboard/catalogue (decision 075). Images and star ratings are presentation and stay in
 * app/components, keyed by the service's slug.
 */

interface SeedPackage {
  name: string;
  /** Absent for the first tier: it is the service itself, at the service's price. */
  priceCents?: number;
  description: string;
  features: readonly string[];
}

interface SeedService {
  slug: string;
  name: string;
  priceCents: number;
  description: string;
  packages?: readonly [SeedPackage, SeedPackage, SeedPackage];
}

/** A realistic a-la-carte catalogue for a social-media agency, prices in cents. */
export const CATALOGUE: readonly SeedService[] = [
  {
    slug: "social-media-audit",
    name: "Social Media Audit",
    priceCents: 2899,
    description:
      "We grade every public detail of your profiles, from bio and visuals to posting rhythm and engagement, and hand you a clear, prioritised list of fixes you can act on this week.",
    packages: [
      {
        name: "Starter",
        description: "A sharp health check of one social profile.",
        features: [
          "Audit of one profile on the platform you choose",
          "Letter grade for bio, visuals, consistency and engagement",
          "Top 10 quick wins, ranked by impact",
          "PDF report in your dashboard within 3 business days",
        ],
      },
      {
        name: "Growth",
        priceCents: 5999,
        description: "Up to three profiles, benchmarked against your competitors.",
        features: [
          "Audit of up to three profiles",
          "Benchmark against three competitors you name",
          "Best times to post, based on your own audience data",
          "30-minute video call to walk through the findings",
        ],
      },
      {
        name: "Premium",
        priceCents: 9999,
        description: "A full-presence review with a 90-day action plan.",
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
    slug: "content-calendar",
    name: "30-Day Content Calendar",
    priceCents: 29900,
    description:
      "Thirty days of post ideas, captions and hashtags mapped to your goals and key dates, ready to schedule across Instagram, TikTok, LinkedIn and Facebook.",
  },
  {
    slug: "brand-identity-kit",
    name: "Brand Identity Kit",
    priceCents: 49900,
    description: "Logo refresh, colour palette, typography and a one-page style guide so every post, story and ad looks unmistakably like you.",
  },
  {
    slug: "instagram-growth-sprint",
    name: "Instagram Growth Sprint",
    priceCents: 39900,
    description: "Four weeks of profile optimisation, Reels strategy and community management aimed at real followers who buy, not vanity numbers.",
  },
  {
    slug: "paid-ads-setup",
    name: "Paid Ads Setup",
    priceCents: 34900,
    description: "Meta and TikTok ad accounts, pixel and conversion tracking set up properly, with three audience tests and creative ready to launch.",
  },
  {
    slug: "short-form-video-pack",
    name: "Short-Form Video Pack",
    priceCents: 44900,
    description: "Eight scripted, edited vertical videos with captions and trending audio, sized for Reels, TikTok and Shorts.",
  },
  {
    slug: "profile-makeover",
    name: "Profile Makeover",
    priceCents: 9900,
    description: "New bio, highlight covers, link-in-bio page and pinned posts that turn profile visits into enquiries.",
  },
  {
    slug: "influencer-outreach",
    name: "Influencer Outreach Campaign",
    priceCents: 59900,
    description: "We shortlist, vet and contact ten creators in your niche, negotiate terms and brief them, then report on reach and sales.",
  },
  {
    slug: "monthly-analytics-report",
    name: "Monthly Analytics Report",
    priceCents: 7900,
    description: "A clear monthly report of reach, engagement, follower growth and top posts, with three recommendations for next month.",
  },
  {
    slug: "linkedin-thought-leadership",
    name: "LinkedIn Thought Leadership",
    priceCents: 27900,
    description: "Eight ghost-written LinkedIn posts in your voice plus profile optimisation to build authority with buyers.",
  },
  {
    slug: "content-creation-kit",
    name: "Content Creation Kit",
    priceCents: 3899,
    description:
      "Scroll-stopping posts designed in your brand colours and written in your voice, delivered ready to publish with captions and hashtags included.",
    packages: [
      {
        name: "Starter",
        description: "A week of ready-to-post content.",
        features: [
          "5 branded post designs for one platform",
          "Captions written in your brand voice",
          "Researched hashtag set for each post",
          "One round of revisions",
        ],
      },
      {
        name: "Growth",
        priceCents: 7999,
        description: "Two weeks of content, including short-form video.",
        features: [
          "10 post designs sized for two platforms",
          "2 short-form vertical videos (up to 30 seconds)",
          "Story templates you can reuse",
          "Two rounds of revisions",
        ],
      },
      {
        name: "Premium",
        priceCents: 14999,
        description: "A full month of content, planned and scheduled for you.",
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
    slug: "brand-strategy-session",
    name: "Brand Strategy Session",
    priceCents: 5000,
    description:
      "A focused working session with a senior strategist to define who you are talking to, what makes you different and how that should look and sound online.",
    packages: [
      {
        name: "Starter",
        description: "A 60-minute session to sharpen your positioning.",
        features: [
          "60-minute video session with a senior strategist",
          "Audience and positioning worksheet, completed together",
          "Written summary with three next steps",
        ],
      },
      {
        name: "Growth",
        priceCents: 12900,
        description: "Positioning plus a voice and visual direction.",
        features: [
          "Two 60-minute sessions a week apart",
          "Brand voice guide with do's and don'ts",
          "Moodboard and colour palette for social",
          "Three content pillars tailored to your audience",
        ],
      },
      {
        name: "Premium",
        priceCents: 24900,
        description: "A complete social brand playbook for your team.",
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

/** The monthly plans: STARTER $49, PRO $159, VIP $589. */
export const PLANS = [
  {
    key: "starter",
    name: "STARTER PACKAGE",
    priceCents: 4900,
    postsPerMonth: 12,
    tagline: "A consistent, professional presence on the platforms that matter most to you.",
    features: [
      "12 branded posts a month on two platforms",
      "Profile refresh: bio, cover and highlight covers",
      "Captions and hashtags written for you",
      "Monthly performance snapshot",
      "Email support within one business day",
    ],
  },
  {
    key: "pro",
    name: "PRO PACKAGE",
    priceCents: 15900,
    postsPerMonth: 20,
    tagline: "For growing brands ready to turn followers into customers.",
    features: [
      "20 posts a month on three platforms, including short-form video",
      "Monthly content calendar planned with you",
      "Community management: comments and DMs answered daily",
      "Bi-weekly analytics report with recommendations",
      "$100 off a professional photoshoot",
      "Priority chat support",
    ],
  },
  {
    key: "vip",
    name: "VIP TREATMENT",
    priceCents: 58900,
    postsPerMonth: 30,
    tagline: "A dedicated team running your social presence end to end.",
    features: [
      "Daily posting on every platform you use",
      "Dedicated brand strategist and a monthly strategy call",
      "Paid ad campaigns set up, managed and optimised",
      "$100 ad credits every month (no rollover)",
      "Influencer outreach and collaboration management",
      "Weekly reporting and same-day support",
    ],
  },
] as const;

/**
 * Adds whatever of the seed is missing (by slug, package tier and plan key) and never changes a
 * row that exists, so staff edits survive every boot. True when anything was added.
 */
export async function seedCatalogue(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    const services = await tx
      .insert(schema.services)
      .values(CATALOGUE.map(({ slug, name, priceCents, description }, index) => ({ slug, name, priceCents, description, sortOrder: index })))
      .onConflictDoNothing()
      .returning({ id: schema.services.id });
    // Packages of a seed service that exists (new or not) but has no tiers yet.
    const seeded = await tx
      .select({ id: schema.services.id, slug: schema.services.slug })
      .from(schema.services)
      .where(
        inArray(
          schema.services.slug,
          CATALOGUE.filter((service) => service.packages).map((service) => service.slug),
        ),
      );
    const bySlug = new Map(seeded.map((row) => [row.slug, row.id]));
    const packages = CATALOGUE.flatMap((service) => {
      const serviceId = bySlug.get(service.slug);
      if (!service.packages || !serviceId) return [];
      return service.packages.map((tier, index) => ({
        serviceId,
        tier: index + 1,
        name: tier.name,
        description: tier.description,
        priceCents: index === 0 ? null : (tier.priceCents ?? null),
        features: [...tier.features],
      }));
    });
    const tiers =
      packages.length > 0 ? await tx.insert(schema.servicePackages).values(packages).onConflictDoNothing().returning({ id: schema.servicePackages.id }) : [];
    const plans = await tx
      .insert(schema.plans)
      .values(PLANS.map((plan, index) => ({ ...plan, features: [...plan.features], sortOrder: index })))
      .onConflictDoNothing()
      .returning({ id: schema.plans.id });
    return services.length + tiers.length + plans.length > 0;
  });
}
