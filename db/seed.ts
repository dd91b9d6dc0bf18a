import { count } from "drizzle-orm";
import type { Db } from "./client";
import * as schema from "./schema";

/** A realistic a-la-carte catalogue for a social-media agency, prices in cents. */
export const CATALOGUE = [
  {
    slug: "social-media-audit",
    name: "Social Media Audit",
    priceCents: 14900,
    description:
      "A line-by-line review of your profiles, content mix, posting cadence and engagement against three competitors, delivered as a prioritised action plan.",
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
    description:
      "Logo refresh, colour palette, typography and a one-page style guide so every post, story and ad looks unmistakably like you.",
  },
  {
    slug: "instagram-growth-sprint",
    name: "Instagram Growth Sprint",
    priceCents: 39900,
    description:
      "Four weeks of profile optimisation, Reels strategy and community management aimed at real followers who buy, not vanity numbers.",
  },
  {
    slug: "paid-ads-setup",
    name: "Paid Ads Setup",
    priceCents: 34900,
    description:
      "Meta and TikTok ad accounts, pixel and conversion tracking set up properly, with three audience tests and creative ready to launch.",
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
    description:
      "We shortlist, vet and contact ten creators in your niche, negotiate terms and brief them, then report on reach and sales.",
  },
  {
    slug: "monthly-analytics-report",
    name: "Monthly Analytics Report",
    priceCents: 7900,
    description:
      "A clear monthly report of reach, engagement, follower growth and top posts, with three recommendations for next month.",
  },
  {
    slug: "linkedin-thought-leadership",
    name: "LinkedIn Thought Leadership",
    priceCents: 27900,
    description: "Eight ghost-written LinkedIn posts in your voice plus profile optimisation to build authority with buyers.",
  },
] as const;

export async function seedCatalogue(db: Db) {
  const [{ value }] = await db.select({ value: count() }).from(schema.services);
  if (value > 0) return false;
  await db
    .insert(schema.services)
    .values(CATALOGUE.map((service, index) => ({ ...service, sortOrder: index })))
    .onConflictDoNothing();
  return true;
}
