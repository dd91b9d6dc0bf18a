import fc from "fast-check";
import { describe, expect, test } from "vitest";

import {
  AREA_WEIGHTS,
  AREAS,
  engagementBand,
  engagementScore,
  gradeAnswers,
  gradeAnswersSchema,
  letterFor,
  PLATFORMS,
  REPLY_TIMES,
  VIDEO_SHARES,
  VISUALS,
  type GradeAnswers,
} from "./grader";

const answers = fc.record({
  platforms: fc.uniqueArray(fc.constantFrom(...PLATFORMS), { minLength: 1, maxLength: 3 }),
  followers: fc.integer({ min: 1, max: 5_000_000 }),
  avgLikes: fc.integer({ min: 0, max: 200_000 }),
  avgComments: fc.integer({ min: 0, max: 20_000 }),
  postsPerWeek: fc.integer({ min: 0, max: 30 }),
  bioComplete: fc.boolean(),
  linkInBio: fc.boolean(),
  brandedVisuals: fc.constantFrom(...VISUALS),
  videoShare: fc.constantFrom(...VIDEO_SHARES),
  replyTime: fc.constantFrom(...REPLY_TIMES),
}) as fc.Arbitrary<GradeAnswers>;

/** One answer made better (or equal), everything else the same. */
const better = fc.oneof(
  fc.record({ field: fc.constant("avgLikes" as const), by: fc.integer({ min: 0, max: 100_000 }) }),
  fc.record({ field: fc.constant("avgComments" as const), by: fc.integer({ min: 0, max: 10_000 }) }),
  fc.record({ field: fc.constant("postsPerWeek" as const), by: fc.integer({ min: 0, max: 20 }) }),
  fc.record({ field: fc.constant("bioComplete" as const), by: fc.constant(1) }),
  fc.record({ field: fc.constant("linkInBio" as const), by: fc.constant(1) }),
  fc.record({ field: fc.constant("brandedVisuals" as const), by: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ field: fc.constant("videoShare" as const), by: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ field: fc.constant("replyTime" as const), by: fc.integer({ min: 0, max: 3 }) }),
);

function improve(a: GradeAnswers, change: { field: string; by: number }): GradeAnswers {
  const up = <T extends string>(list: readonly T[], value: T) => list[Math.min(list.length - 1, list.indexOf(value) + change.by)]!;
  switch (change.field) {
    case "avgLikes":
    case "avgComments":
    case "postsPerWeek":
      return { ...a, [change.field]: a[change.field] + change.by };
    case "bioComplete":
    case "linkInBio":
      return { ...a, [change.field]: true };
    case "brandedVisuals":
      return { ...a, brandedVisuals: up(VISUALS, a.brandedVisuals) };
    case "videoShare":
      return { ...a, videoShare: up(VIDEO_SHARES, a.videoShare) };
    default:
      return { ...a, replyTime: up(REPLY_TIMES, a.replyTime) };
  }
}

describe("the grader's scoring model", () => {
  test("the same answers always give the same grade", () => {
    fc.assert(
      fc.property(answers, (a) => {
        expect(gradeAnswers(a)).toEqual(gradeAnswers(structuredClone(a)));
      }),
    );
  });

  test("a better answer never lowers the overall score or any area's score", () => {
    fc.assert(
      fc.property(answers, better, (a, change) => {
        const before = gradeAnswers(a);
        const after = gradeAnswers(improve(a, change));
        expect(after.score).toBeGreaterThanOrEqual(before.score);
        for (const [i, area] of after.areas.entries()) expect(area.score).toBeGreaterThanOrEqual(before.areas[i]!.score);
      }),
      { numRuns: 2000 },
    );
  });

  test("scores stay within 0–100, the overall is the weighted mean and its letter follows the floors", () => {
    fc.assert(
      fc.property(answers, (a) => {
        const grade = gradeAnswers(a);
        for (const area of grade.areas) {
          expect(area.score).toBeGreaterThanOrEqual(0);
          expect(area.score).toBeLessThanOrEqual(100);
        }
        const mean = grade.areas.reduce((sum, area) => sum + area.score * AREA_WEIGHTS[area.key], 0);
        expect(grade.score).toBe(Math.round(mean));
        expect(grade.overall).toBe(letterFor(grade.score));
        expect(grade.areas.map((area) => area.key)).toEqual([...AREAS]);
        expect(grade.recommend.length).toBeLessThanOrEqual(3);
      }),
    );
  });

  test("the weights add up to 1", () => {
    expect(Object.values(AREA_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  test("follower bands and their median engagement rates", () => {
    expect([999, 1_000, 1_001, 5_000, 20_000, 100_000, 1_000_000, 1_000_001].map((f) => engagementBand(f).medianRate)).toEqual([
      6, 6, 4.5, 4.5, 2.5, 2, 1.6, 1.2,
    ]);
  });

  test("engagement: 70 at the benchmark, 100 at twice it, 40 at half, 10 at a quarter, 0 with none", () => {
    expect(engagementScore(2, 2)).toBe(70);
    expect(engagementScore(4, 2)).toBe(100);
    expect(engagementScore(1, 2)).toBe(40);
    expect(engagementScore(0.5, 2)).toBe(10);
    expect(engagementScore(0, 2)).toBe(0);
  });

  test("a worked example: 2,000 followers on Instagram, 60 likes and 6 comments, 2 posts a week", () => {
    const grade = gradeAnswers(gradeAnswersSchema.parse({ platforms: ["instagram"], followers: 2000, avgLikes: 60, avgComments: 6, postsPerWeek: 2 }));
    // 3.3 % against 4.5 %: 70 + 30·log2(3.3/4.5) = 56.6 → 57; 2 of 4 posts → 50; defaults elsewhere.
    expect(grade.areas.map((a) => [a.key, a.score])).toEqual([
      ["engagement", 57],
      ["consistency", 50],
      ["profile", 0],
      ["visuals", 55],
      ["video", 10],
      ["responsiveness", 45],
    ]);
    expect(grade.score).toBe(Math.round(57 * 0.3 + 50 * 0.2 + 0 + 55 * 0.15 + 10 * 0.1 + 45 * 0.15));
    expect(grade.score).toBe(43);
    expect(grade.overall).toBe("D");
    expect(grade.recommend.map((r) => r.serviceSlug)).toEqual(["profile-makeover", "short-form-video-pack", "social-media-audit"]);
    expect(grade.areas[0]!.advice).toContain("3.3% against a typical 4.5% for 1,000–5,000 followers");
  });

  test("the best answers get an A and no recommendations", () => {
    const grade = gradeAnswers(
      gradeAnswersSchema.parse({
        platforms: ["instagram"],
        followers: 1000,
        avgLikes: 200,
        avgComments: 20,
        postsPerWeek: 7,
        bioComplete: "on",
        linkInBio: "on",
        brandedVisuals: "always",
        videoShare: "most",
        replyTime: "hour",
      }),
    );
    expect(grade).toMatchObject({ overall: "A", score: 100, recommend: [] });
  });
});

describe("the grader's answers", () => {
  const base = { followers: 100, avgLikes: 5, avgComments: 1, postsPerWeek: 3 };
  const message = (input: unknown) => gradeAnswersSchema.safeParse(input).error?.issues[0]?.message;

  test("the four numbers are required, numbers from 0 to 1,000,000,000, followers at least 1", () => {
    expect(message({ ...base, followers: undefined })).toBe("Followers must be a number.");
    expect(message({ ...base, followers: 0 })).toBe("Followers must be at least 1.");
    expect(message({ ...base, avgLikes: -1 })).toBe("Average likes per post cannot be negative.");
    expect(message({ ...base, postsPerWeek: 1_000_000_001 })).toBe("Posts per week must be at most 1,000,000,000.");
    expect(message({ ...base, avgComments: "lots" })).toBe("Average comments per post must be a number.");
    expect(message({ ...base, avgComments: "Infinity" })).toBe("Average comments per post must be a number.");
  });

  test("a JSON true, null or array is not a number, and a checkbox takes only booleans or the form's words", () => {
    for (const value of [true, false, null, [5], {}, ""]) expect(message({ ...base, followers: value })).toBe("Followers must be a number.");
    for (const value of [1, "maybe", null, [true]]) expect(message({ ...base, bioComplete: value })).toBe("Bio complete must be true or false.");
    expect(message({ ...base, linkInBio: {} })).toBe("Link in bio must be true or false.");
    expect(gradeAnswersSchema.parse({ ...base, bioComplete: true, linkInBio: "false" })).toMatchObject({ bioComplete: true, linkInBio: false });
  });

  test("the optional questions have their defaults; a form's strings and checkboxes are read", () => {
    expect(gradeAnswersSchema.parse(base)).toEqual({
      ...base,
      platforms: ["instagram"],
      bioComplete: false,
      linkInBio: false,
      brandedVisuals: "sometimes",
      videoShare: "none",
      replyTime: "days",
    });
    expect(
      gradeAnswersSchema.parse({ followers: "1200", avgLikes: "30", avgComments: "2", postsPerWeek: "4", platforms: "tiktok", bioComplete: "on" }),
    ).toMatchObject({ followers: 1200, platforms: ["tiktok"], bioComplete: true });
  });

  test("choices outside the lists are refused with the field's message", () => {
    expect(message({ ...base, platforms: ["myspace"] })).toBe("Choose platforms from the list.");
    expect(message({ ...base, replyTime: "never-ever" })).toBe("Choose how fast you reply.");
  });
});
