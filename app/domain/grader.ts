import { z } from "./zod";

/*
 * The social media grader: every number and threshold of the scoring model lives here, shared by
 * the form (live score in the browser), the API and the result page. Sources and reasoning:
 * docs/decisions/110-grader-scoring-model.md. Deterministic: the same answers always give the
 * same grade; monotonic: a better answer never lowers a score.
 */

export const PLATFORMS = ["instagram", "tiktok", "facebook", "linkedin", "x", "youtube"] as const;
export type Platform = (typeof PLATFORMS)[number];
export const PLATFORM_LABELS: Record<Platform, string> = {
  instagram: "Instagram",
  tiktok: "TikTok",
  facebook: "Facebook",
  linkedin: "LinkedIn",
  x: "X (Twitter)",
  youtube: "YouTube",
};

export const VISUALS = ["never", "sometimes", "always"] as const;
export const VIDEO_SHARES = ["none", "some", "half", "most"] as const;
export const REPLY_TIMES = ["rarely", "days", "same_day", "hour"] as const;

export const CHOICE_LABELS = {
  brandedVisuals: { never: "Rarely or never", sometimes: "Sometimes", always: "Always" },
  videoShare: { none: "None", some: "Under a third", half: "About half", most: "Most of them" },
  replyTime: { rarely: "Rarely reply", days: "Within a few days", same_day: "The same day", hour: "Within the hour" },
} as const;

/* ---------- answers ---------- */

const MAX_NUMBER = 1_000_000_000;
/** A number as the HTML form sends it (a decimal string); `Infinity`, hex and empty strings are not numbers. */
const NUMERIC = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;
/** A JSON number or the form's numeric string; `true`, `null` or `[5]` are refused with the field's message. */
const count = (label: string, min = 0) => {
  const bounded = (number: z.ZodNumber) =>
    number
      .min(min, min === 0 ? `${label} cannot be negative.` : `${label} must be at least ${min}.`)
      .max(MAX_NUMBER, `${label} must be at most 1,000,000,000.`);
  const message = `${label} must be a number.`;
  return z
    .union([bounded(z.number({ error: message })), z.string({ error: message }).regex(NUMERIC, message)], { error: message })
    .pipe(z.coerce.number())
    .pipe(bounded(z.number()));
};

/** A checkbox: a JSON boolean, or what the form sends ("on" when ticked; "true"/"false", "yes"/"no"). */
const CHECKED = ["true", "on", "yes"];
const checkbox = (label: string) =>
  z
    .union([z.boolean(), z.enum([...CHECKED, "false", "off", "no"])], { error: `${label} must be true or false.` })
    .transform((v) => v === true || CHECKED.includes(v as string));

/** What the visitor answers. Required: the four numbers; the rest have the documented defaults. */
export const gradeAnswersSchema = z.object({
  platforms: z
    .preprocess(
      (v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]),
      z.array(z.enum(PLATFORMS, { error: "Choose platforms from the list." })),
    )
    .transform((list) => (list.length === 0 ? (["instagram"] as Platform[]) : [...new Set(list)]))
    .pipe(z.array(z.enum(PLATFORMS)).max(PLATFORMS.length)),
  followers: count("Followers", 1),
  avgLikes: count("Average likes per post"),
  avgComments: count("Average comments per post"),
  postsPerWeek: count("Posts per week"),
  bioComplete: checkbox("Bio complete").default(false),
  linkInBio: checkbox("Link in bio").default(false),
  brandedVisuals: z.enum(VISUALS, { error: "Choose how often your visuals follow your brand." }).default("sometimes"),
  videoShare: z.enum(VIDEO_SHARES, { error: "Choose how many of your posts are video." }).default("none"),
  replyTime: z.enum(REPLY_TIMES, { error: "Choose how fast you reply." }).default("days"),
});
export type GradeAnswers = z.output<typeof gradeAnswersSchema>;

/* ---------- the model ---------- */

/**
 * Median engagement rate per post ((likes + comments) / followers) on Instagram by follower band,
 * in percent, after HypeAuditor's follower-tier figures; smaller accounts engage more.
 */
export const ENGAGEMENT_BANDS: ReadonlyArray<{ upTo: number; label: string; medianRate: number }> = [
  { upTo: 1_000, label: "under 1,000 followers", medianRate: 6 },
  { upTo: 5_000, label: "1,000–5,000 followers", medianRate: 4.5 },
  { upTo: 20_000, label: "5,000–20,000 followers", medianRate: 2.5 },
  { upTo: 100_000, label: "20,000–100,000 followers", medianRate: 2 },
  { upTo: 1_000_000, label: "100,000–1 million followers", medianRate: 1.6 },
  { upTo: Infinity, label: "over 1 million followers", medianRate: 1.2 },
];

/** Each platform's typical engagement relative to Instagram (Rival IQ's cross-industry medians). */
export const PLATFORM_ENGAGEMENT_FACTOR: Record<Platform, number> = {
  instagram: 1,
  tiktok: 1.5,
  facebook: 0.3,
  linkedin: 0.8,
  x: 0.25,
  youtube: 0.9,
};

/** Posts a week that platform guidance recommends for steady reach. */
export const RECOMMENDED_POSTS_PER_WEEK: Record<Platform, number> = {
  instagram: 4,
  tiktok: 7,
  facebook: 5,
  linkedin: 3,
  x: 10,
  youtube: 2,
};

const VISUALS_SCORE: Record<(typeof VISUALS)[number], number> = { never: 10, sometimes: 55, always: 100 };
const VIDEO_SCORE: Record<(typeof VIDEO_SHARES)[number], number> = { none: 10, some: 45, half: 80, most: 100 };
const REPLY_SCORE: Record<(typeof REPLY_TIMES)[number], number> = { rarely: 10, days: 45, same_day: 80, hour: 100 };

export const AREAS = ["engagement", "consistency", "profile", "visuals", "video", "responsiveness"] as const;
export type AreaKey = (typeof AREAS)[number];

/** Weights of the overall score (they add up to 1). */
export const AREA_WEIGHTS: Record<AreaKey, number> = {
  engagement: 0.3,
  consistency: 0.2,
  profile: 0.1,
  visuals: 0.15,
  video: 0.1,
  responsiveness: 0.15,
};

export const AREA_LABELS: Record<AreaKey, string> = {
  engagement: "Engagement",
  consistency: "Consistency",
  profile: "Profile",
  visuals: "Branded visuals",
  video: "Video",
  responsiveness: "Responsiveness",
};

/** The catalogue service (by slug) that fixes each area, for the recommendations. */
export const AREA_SERVICE: Record<AreaKey, string> = {
  engagement: "instagram-growth-sprint",
  consistency: "content-calendar",
  profile: "profile-makeover",
  visuals: "brand-identity-kit",
  video: "short-form-video-pack",
  responsiveness: "social-media-audit",
};

export const LETTERS = ["A", "B", "C", "D", "F"] as const;
export type Letter = (typeof LETTERS)[number];
/** Lowest score of each letter. */
export const LETTER_FLOORS: ReadonlyArray<[Letter, number]> = [
  ["A", 85],
  ["B", 70],
  ["C", 55],
  ["D", 40],
  ["F", 0],
];
export const letterFor = (score: number): Letter => LETTER_FLOORS.find(([, floor]) => score >= floor)![0];

/** An area scores at most this to be worth a recommended service. */
export const RECOMMEND_BELOW = 70;
export const MAX_RECOMMENDATIONS = 3;

export interface AreaResult {
  key: AreaKey;
  label: string;
  score: number;
  grade: Letter;
  advice: string;
}
export interface GradeResult {
  overall: Letter;
  score: number;
  areas: AreaResult[];
  /** Weakest first, at most MAX_RECOMMENDATIONS, only areas under RECOMMEND_BELOW. */
  recommend: Array<{ area: AreaKey; serviceSlug: string; reason: string }>;
  engagementRate: number;
  benchmarkRate: number;
}

const clamp = (n: number) => Math.max(0, Math.min(100, n));
const round1 = (n: number) => Math.round(n * 10) / 10;
const formatRate = (rate: number) => `${rate < 10 ? round1(rate) : Math.round(rate)}%`;

export function engagementBand(followers: number) {
  return ENGAGEMENT_BANDS.find((band) => followers <= band.upTo)!;
}

/** The benchmark of the visitor's main platform (the first chosen) and follower band, in percent. */
export function benchmarkRate(answers: Pick<GradeAnswers, "followers" | "platforms">) {
  const platform = answers.platforms[0] ?? "instagram";
  return engagementBand(answers.followers).medianRate * PLATFORM_ENGAGEMENT_FACTOR[platform];
}

/**
 * 70 at the benchmark, +30 for each doubling above it, -30 for each halving below: twice the
 * typical rate is 100, a quarter of it 10.
 */
export function engagementScore(rate: number, benchmark: number) {
  if (rate <= 0) return 0;
  return Math.round(clamp(70 + 30 * Math.log2(rate / benchmark)));
}

function scoreAreas(a: GradeAnswers): { scores: Record<AreaKey, number>; rate: number; benchmark: number; recommendedPosts: number } {
  const rate = ((a.avgLikes + a.avgComments) / a.followers) * 100;
  const benchmark = benchmarkRate(a);
  // Several platforms: the most demanding recommendation of those chosen.
  const recommendedPosts = Math.max(...a.platforms.map((p) => RECOMMENDED_POSTS_PER_WEEK[p]));
  return {
    rate,
    benchmark,
    recommendedPosts,
    scores: {
      engagement: engagementScore(rate, benchmark),
      consistency: Math.round(clamp((a.postsPerWeek / recommendedPosts) * 100)),
      profile: (a.bioComplete ? 50 : 0) + (a.linkInBio ? 50 : 0),
      visuals: VISUALS_SCORE[a.brandedVisuals],
      video: VIDEO_SCORE[a.videoShare],
      responsiveness: REPLY_SCORE[a.replyTime],
    },
  };
}

function adviceFor(key: AreaKey, score: number, a: GradeAnswers, rate: number, benchmark: number, recommendedPosts: number): string {
  const strong = score >= 85;
  switch (key) {
    case "engagement":
      return strong
        ? `Your engagement rate of ${formatRate(rate)} beats the typical ${formatRate(benchmark)} for ${engagementBand(a.followers).label}: keep asking questions and answering comments.`
        : `Your engagement rate is ${formatRate(rate)} against a typical ${formatRate(benchmark)} for ${engagementBand(a.followers).label}. End every post with a question and answer the first comments within an hour.`;
    case "consistency":
      return strong
        ? `You post ${a.postsPerWeek} times a week, at or above the ${recommendedPosts} we recommend: batch-plan a month ahead to keep it up.`
        : `You post ${a.postsPerWeek} times a week; aim for ${recommendedPosts}. Plan a month of posts in one sitting and schedule them.`;
    case "profile":
      if (a.bioComplete && a.linkInBio) return "Your bio and link are complete: revisit them every quarter so the offer stays current.";
      if (!a.bioComplete && !a.linkInBio) return "Write a bio that says who you help and how, and add a link to the page where people can buy or book.";
      return a.bioComplete
        ? "Add a link in your bio to the page where people can buy or book."
        : "Rewrite your bio to say who you help, how, and what to do next.";
    case "visuals":
      return strong
        ? "Your posts look like one brand: document the colours, fonts and templates so anyone can keep it that way."
        : "Use one colour palette, one or two fonts and a few templates so people recognise your posts before they read the name.";
    case "video":
      return strong
        ? "Most of your posts are video: repurpose each one as a Reel, a TikTok and a Short."
        : "Make at least half of your posts short vertical videos: they reach the most new people on every major platform.";
    case "responsiveness":
      return strong
        ? "You answer within the hour: keep saved replies for the common questions so it stays that fast."
        : "Answer comments and messages the same day, ideally within the hour: set two fixed times a day to clear them.";
  }
}

/** Scores answers that already passed `gradeAnswersSchema`. */
export function gradeAnswers(answers: GradeAnswers): GradeResult {
  const { scores, rate, benchmark, recommendedPosts } = scoreAreas(answers);
  const areas = AREAS.map((key) => ({
    key,
    label: AREA_LABELS[key],
    score: scores[key],
    grade: letterFor(scores[key]),
    advice: adviceFor(key, scores[key], answers, rate, benchmark, recommendedPosts),
  }));
  const score = Math.round(AREAS.reduce((sum, key) => sum + scores[key] * AREA_WEIGHTS[key], 0));
  const recommend = [...areas]
    .filter((area) => area.score < RECOMMEND_BELOW)
    .sort((x, y) => x.score - y.score || AREAS.indexOf(x.key) - AREAS.indexOf(y.key))
    .filter((area, i, list) => list.findIndex((other) => AREA_SERVICE[other.key] === AREA_SERVICE[area.key]) === i)
    .slice(0, MAX_RECOMMENDATIONS)
    .map((area) => ({ area: area.key, serviceSlug: AREA_SERVICE[area.key], reason: `${area.label} scored ${area.score}/100. ${area.advice}` }));
  return { overall: letterFor(score), score, areas, recommend, engagementRate: rate, benchmarkRate: benchmark };
}
