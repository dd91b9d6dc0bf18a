import { createPost, updatePost } from "~/models/posts.server";
import { issueReviewLink } from "~/models/review-links.server";
import { db } from "~/utils/db.server";

import { byRole, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * Approvals (decisions 292–294): staff set a client's approval settings (its owner may read them),
 * a post's revisions are read by staff and the client (never a draft's), and a review link opens
 * its one post to whoever holds it, signed in or not; a link that is not one is a 404 page.
 */

type Team = Fixtures["team"];
const when = "2030-07-10T10:00:00Z";
const login = { status: 302, location: "/login" };

async function inReview(team: Team, customerId: string) {
  const post = await createPost(team, { customerId, channel: "linkedin", scheduledAt: when, caption: "Review link post" });
  await updatePost(team, post.id, { status: "in_review" });
  return post.id;
}

/** A review link for customer A (the owner) on a fresh post in review: its path. */
async function freshLink(f: Pick<Fixtures, "team" | "customerA">) {
  const postId = await inReview(f.team, f.customerA.id);
  const url = await db.transaction((tx) => issueReviewLink(tx, postId, f.customerA.id, new Date(when)));
  return new URL(url).pathname;
}

export async function fixtures(base: Omit<Fixtures, "ids">) {
  return { approvalsLink: await freshLink(base) };
}

// The defaults: the calendar's rows review customer A's posts as any client's.
const approval = { mode: "required", approvers: "any", onDeadline: "hold", reviewHours: 48 };

// What a colleague of customer A gets: the settings are the owners'; the revisions, those who see the work (others are not told it exists).
const ownersOnly = { needs: "manage" as const };
const seesWork = { needs: "work" as const, refused: 404 };

export const rows: AuthorizationRow[] = [
  {
    route: "api+/clients+/$id.approval.ts",
    method: "GET",
    path: (f) => `/api/clients/${f.customerA.id}/approval`,
    ...ownersOnly,
    expect: { anonymous: 401, customerA: 200, customerB: 404, team: 200 },
  },
  {
    route: "api+/clients+/$id.approval.ts",
    method: "PUT",
    path: (f) => `/api/clients/${f.customerA.id}/approval`,
    body: { json: approval },
    expect: byRole({ anonymous: 401, customer: 403, team: 200 }),
  },
  {
    route: "api+/posts+/$id.revisions.ts",
    method: "GET",
    path: (f) => `/api/posts/${f.ids.calendarPost}/revisions`,
    ...seesWork,
    expect: { anonymous: 401, customerA: 200, customerB: 404, team: 200 },
  },
  {
    route: "api+/posts+/$id.revisions.ts",
    method: "GET",
    path: (f) => `/api/posts/${f.ids.calendarDraft}/revisions`,
    note: "a draft",
    ...seesWork,
    expect: { anonymous: 401, customerA: 404, customerB: 404, team: 200 },
  },
  { route: "api+/posts+/$id.revisions.ts", method: "POST", path: (f) => `/api/posts/${f.ids.calendarPost}/revisions`, expect: everyone(405) },
  { route: "review.$token.tsx", method: "GET", path: (f) => f.ids.approvalsLink, expect: everyone(200) },
  { route: "review.$token.tsx", method: "GET", path: `/review/${"A".repeat(43)}.${"B".repeat(43)}`, note: "not a link", expect: everyone(404) },
  {
    route: "review.$token.tsx",
    method: "POST",
    path: (f) => freshLink(f),
    note: "approve through a fresh link",
    body: { form: { decision: "approve" } },
    expect: everyone(200),
  },
  {
    route: "review.$token.tsx",
    method: "POST",
    path: `/review/${"A".repeat(43)}.${"B".repeat(43)}`,
    note: "not a link",
    body: { form: { decision: "approve" } },
    expect: everyone(404),
  },
  {
    route: "review.$token.media.$mediaId.ts",
    method: "GET",
    path: (f) => `${f.ids.approvalsLink}/media/${f.ids.calendarMedia}`,
    note: "a file of another post",
    expect: everyone(404),
  },
  {
    route: "dashboard+/_staff+/users+/$userId.approval.tsx",
    method: "GET",
    path: (f) => `/dashboard/users/${f.customerA.id}/approval`,
    expect: byRole({ anonymous: login, customer: 403, team: 200 }),
  },
  {
    route: "dashboard+/_staff+/users+/$userId.approval.tsx",
    method: "POST",
    path: (f) => `/dashboard/users/${f.customerA.id}/approval`,
    body: { form: { ...approval, reviewHours: "48" } },
    expect: byRole({ anonymous: login, customer: 403, team: { status: 302, location: "/dashboard/users/" } }),
  },
];
