import { calendarLinkFor } from "~/models/calendar-links.server";
import { addPostMedia, createPost, updatePost } from "~/models/posts.server";

import { samples } from "../../support/reports-cases";
import { byRole, createTestUser, everyone } from "./helpers";
import type { AuthorizationRow, Fixtures } from "./types";

/**
 * The content calendar (decision 210): staff draft and edit posts; the customer they belong to lists
 * them (never drafts), reviews them while in review and comments; anyone else is 404, as for a
 * missing post. Rows that change a post's status get a fresh post per call.
 */

type Team = Fixtures["team"];
const when = "2030-06-10T10:00:00Z";

async function postFor(team: Team, customerId: string, status: "draft" | "in_review") {
  const post = await createPost(team, { customerId, channel: "instagram", scheduledAt: when, caption: "Authz post" });
  if (status === "in_review") await updatePost(team, post.id, { status: "in_review" });
  return post.id;
}

const png = () => {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(samples.png())]), "post.png");
  return form;
};

export async function fixtures(base: Omit<Fixtures, "ids">) {
  const reviewPost = await postFor(base.team, base.customerA.id, "in_review");
  const draftPost = await postFor(base.team, base.customerA.id, "draft");
  const request = new Request(`http://localhost/api/posts/${reviewPost}/media`, { method: "POST", body: png() });
  const withMedia = await addPostMedia(base.team, reviewPost, request);
  const draftMedia = await addPostMedia(base.team, draftPost, new Request(`http://localhost/api/posts/${draftPost}/media`, { method: "POST", body: png() }));
  // A link of its own customer, so that the rows renewing A's and B's links leave it working.
  const feedUrl = await calendarLinkFor((await createTestUser({ role: "user", name: "Feed Holder" })).id);
  return {
    calendarPost: reviewPost,
    calendarDraft: draftPost,
    calendarMedia: withMedia.media[0]!.id,
    calendarDraftMedia: draftMedia.media[0]!.id,
    calendarFeed: new URL(feedUrl).pathname,
  };
}

const freshInReview = async (f: Fixtures) => postFor(f.team, f.customerA.id, "in_review");
const loginPage = { status: 302, location: "/login" };

export const rows: AuthorizationRow[] = [
  { route: "api+/posts+/_layout.ts", method: "GET", path: "/api/posts", needs: "work", expect: byRole({ anonymous: 401, customer: 200, team: 200 }) },
  {
    route: "api+/posts+/_layout.ts",
    method: "GET",
    path: (f) => `/api/posts?customerId=${f.customerA.id}&status=in_review&from=2030-06-01&to=2030-07-01`,
    note: "customer A's month",
    needs: "work",
    expect: { anonymous: 401, customerA: 200, customerB: 404, team: 200 },
  },
  {
    route: "api+/posts+/_layout.ts",
    method: "GET",
    path: (f) => `/api/posts?customerId=${f.ownerA2.id}`,
    note: "customer A's posts by a colleague's id",
    needs: "work",
    expect: { anonymous: 401, customerA: 200, customerB: 404, team: 200 },
  },
  {
    route: "api+/posts+/_layout.ts",
    method: "POST",
    path: "/api/posts",
    body: (f) => ({ json: { customerId: f.customerA.id, channel: "x", scheduledAt: when, caption: "New" } }),
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  {
    route: "api+/posts+/$id.ts",
    method: "PATCH",
    path: async (f) => `/api/posts/${await freshInReview(f)}`,
    body: { json: { caption: "Edited", scheduledAt: "2030-06-11T10:00:00Z" } },
    expect: byRole({ anonymous: 401, customer: 403, team: 200 }),
  },
  {
    route: "api+/posts+/$id.ts",
    method: "PATCH",
    path: `/api/posts/${crypto.randomUUID()}`,
    note: "unknown id",
    body: { json: { caption: "x" } },
    expect: byRole({ anonymous: 401, customer: 403, team: 404 }),
  },
  { route: "api+/posts+/$id.ts", method: "GET", path: (f) => `/api/posts/${f.ids.calendarPost}`, expect: everyone(405) },
  {
    route: "api+/posts+/$id.media.ts",
    method: "POST",
    path: (f) => `/api/posts/${f.ids.calendarDraft}/media`,
    body: { multipart: png },
    expect: byRole({ anonymous: 401, customer: 403, team: 201 }),
  },
  { route: "api+/posts+/$id.media.ts", method: "GET", path: (f) => `/api/posts/${f.ids.calendarDraft}/media`, expect: everyone(405) },
  {
    route: "api+/posts+/$id.review.ts",
    method: "POST",
    path: async (f) => `/api/posts/${await freshInReview(f)}/review`,
    body: { json: { decision: "approve" } },
    needs: "approve",
    expect: { anonymous: 401, customerA: 200, customerB: 404, team: 403 },
  },
  {
    route: "api+/posts+/$id.review.ts",
    method: "POST",
    path: (f) => `/api/posts/${f.ids.calendarDraft}/review`,
    note: "a draft",
    body: { json: { decision: "approve" } },
    expect: { anonymous: 401, customerA: 404, customerB: 404, team: 403 },
  },
  { route: "api+/posts+/$id.review.ts", method: "GET", path: (f) => `/api/posts/${f.ids.calendarPost}/review`, expect: everyone(405) },
  {
    route: "api+/posts+/$id.comments.ts",
    method: "POST",
    path: (f) => `/api/posts/${f.ids.calendarPost}/comments`,
    body: { json: { body: "Looks good" } },
    needs: "answer",
    refused: 404,
    expect: { anonymous: 401, customerA: 201, customerB: 404, team: 201 },
  },
  {
    route: "api+/posts+/$id.comments.ts",
    method: "POST",
    path: (f) => `/api/posts/${f.ids.calendarDraft}/comments`,
    note: "a draft",
    body: { json: { body: "Internal" } },
    expect: { anonymous: 401, customerA: 404, customerB: 404, team: 201 },
  },
  { route: "api+/posts+/$id.comments.ts", method: "GET", path: (f) => `/api/posts/${f.ids.calendarPost}/comments`, expect: everyone(405) },
  {
    route: "files.posts.$mediaId.ts",
    method: "GET",
    path: (f) => `/files/posts/${f.ids.calendarMedia}`,
    needs: "work",
    refused: 404,
    expect: { anonymous: loginPage, customerA: 200, customerB: 404, team: 200 },
  },
  {
    route: "files.posts.$mediaId.ts",
    method: "GET",
    path: (f) => `/files/posts/${f.ids.calendarDraftMedia}`,
    note: "a draft's file",
    expect: { anonymous: loginPage, customerA: 404, customerB: 404, team: 200 },
  },
];

// The private iCalendar link: the customer's own; the feed opens to whoever holds the link, cookies or not.
rows.push(
  { route: "api+/calendar.link.ts", method: "GET", path: "/api/calendar/link", needs: "work", expect: byRole({ anonymous: 401, customer: 200, team: 403 }) },
  { route: "api+/calendar.link.ts", method: "POST", path: "/api/calendar/link", needs: "work", expect: byRole({ anonymous: 401, customer: 200, team: 403 }) },
  { route: "calendar.$token.ts", method: "GET", path: (f) => f.ids.calendarFeed, expect: everyone(200) },
  { route: "calendar.$token.ts", method: "GET", path: `/calendar/${"A".repeat(43)}.ics`, note: "unknown token", expect: everyone(404) },
  { route: "calendar.$token.ts", method: "POST", path: (f) => f.ids.calendarFeed, expect: everyone(405) },
);

// The calendar pages: both roles on /dashboard/calendar, staff alone on a post's page.
rows.push(
  {
    route: "dashboard+/calendar.tsx",
    method: "GET",
    path: "/dashboard/calendar?view=week&week=2030-06-10",
    needs: "work",
    expect: byRole({ anonymous: loginPage, customer: 200, team: 200 }),
  },
  {
    route: "dashboard+/calendar.tsx",
    method: "GET",
    path: (f) => `/dashboard/calendar?month=2030-06&customerId=${f.customerA.id}&status=in_review`,
    note: "filtered",
    needs: "work",
    expect: byRole({ anonymous: loginPage, customer: 200, team: 200 }),
  },
  {
    route: "dashboard+/calendar.tsx",
    method: "POST",
    path: "/dashboard/calendar?month=2030-06",
    note: "a comment",
    needs: "answer",
    refused: 404,
    body: (f) => ({ form: { intent: "comment", postId: f.ids.calendarPost, body: "From the page" } }),
    expect: {
      anonymous: loginPage,
      customerA: { status: 302, location: "/dashboard/calendar" },
      customerB: 404,
      team: { status: 302, location: "/dashboard/calendar" },
    },
  },
  {
    route: "dashboard+/calendar.tsx",
    method: "POST",
    path: "/dashboard/calendar",
    note: "approve",
    needs: "approve",
    body: async (f) => ({ form: { intent: "approve", postId: await freshInReview(f) } }),
    expect: { anonymous: loginPage, customerA: { status: 302, location: "/dashboard/calendar" }, customerB: 404, team: 403 },
  },
  {
    route: "dashboard+/calendar.tsx",
    method: "POST",
    path: "/dashboard/calendar",
    note: "draft a post",
    body: (f) => ({ form: { intent: "create", customerId: f.customerA.id, channel: "linkedin", date: "2030-06-12", time: "09:30", caption: "Hi" } }),
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 302, location: "/dashboard/calendar/posts/" } }),
  },
  {
    route: "dashboard+/calendar.tsx",
    method: "POST",
    path: "/dashboard/calendar",
    note: "reschedule by dragging",
    body: async (f) => ({ form: { intent: "reschedule", postId: await freshInReview(f), date: "2030-06-14" } }),
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 302, location: "/dashboard/calendar" } }),
  },
  {
    route: "dashboard+/calendar.tsx",
    method: "POST",
    path: "/dashboard/calendar",
    note: "renew the calendar link",
    needs: "work",
    body: { form: { intent: "renew_link" } },
    expect: byRole({ anonymous: loginPage, customer: { status: 302, location: "/dashboard/calendar" }, team: 403 }),
  },
  {
    route: "dashboard+/_staff+/calendar_.posts.$postId.tsx",
    method: "GET",
    path: (f) => `/dashboard/calendar/posts/${f.ids.calendarPost}`,
    note: "the owner is sent to it in their own calendar",
    needs: "work",
    refused: 404,
    expect: { anonymous: loginPage, customerA: { status: 302, location: "/dashboard/calendar?month=" }, customerB: 404, team: 200 },
  },
  {
    route: "dashboard+/_staff+/calendar_.posts.$postId.tsx",
    method: "GET",
    path: (f) => `/dashboard/calendar/posts/${f.ids.calendarDraft}`,
    note: "a draft, which its customer does not see yet",
    expect: { anonymous: loginPage, customerA: 404, customerB: 404, team: 200 },
  },
  {
    route: "dashboard+/_staff+/calendar_.posts.$postId.tsx",
    method: "GET",
    path: `/dashboard/calendar/posts/${crypto.randomUUID()}`,
    note: "unknown post",
    expect: byRole({ anonymous: loginPage, customer: 404, team: 404 }),
  },
  {
    route: "dashboard+/_staff+/calendar_.posts.$postId.tsx",
    method: "POST",
    path: async (f) => `/dashboard/calendar/posts/${await freshInReview(f)}`,
    note: "edit and reschedule",
    body: { form: { intent: "edit", channel: "x", date: "2030-06-15", time: "11:00", caption: "Edited" } },
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 302, location: "/dashboard/calendar/posts/" } }),
  },
  {
    route: "dashboard+/_staff+/calendar_.posts.$postId.tsx",
    method: "POST",
    path: (f) => `/dashboard/calendar/posts/${f.ids.calendarDraft}?media`,
    note: "media without JavaScript",
    body: { multipart: png },
    expect: byRole({ anonymous: loginPage, customer: 403, team: { status: 302, location: "/dashboard/calendar/posts/" } }),
  },
);
