import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";

import { CalendarBoard } from "~/components/calendar/calendar-board";
import { CalendarLink } from "~/components/calendar/calendar-link";
import { NewPostForm } from "~/components/calendar/new-post-form";
import { PostCard } from "~/components/calendar/post-card";
import { useLivePosts } from "~/components/calendar/use-live-posts";
import { PageHeader } from "~/components/dashboard/page-header";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { CalendarDays, ChevronLeft, ChevronRight } from "~/components/ui/icons";
import {
  formatClock,
  packCustomers,
  periodMonth,
  periodView,
  POST_STATUS_LABELS,
  POST_STATUSES,
  shiftMonth,
  unpackCustomers,
  zonedToUtc,
  type PostStatus,
} from "~/domain/calendar";
import { isUuid } from "~/domain/ids";
import { can, ownerKey } from "~/domain/permissions";
import { commentSchema, createPostSchema, reviewSchema } from "~/domain/schemas/calendar";
import { z } from "~/domain/zod";
import { calendarLinkFor, renewCalendarLink } from "~/models/calendar-links.server";
import { calendarCustomers, postQuota } from "~/models/calendar.server";
import { reviewChangesOf } from "~/models/post-approvals.server";
import { addPostComment, createPost, getPostFor, listPosts, reviewPost, updatePost } from "~/models/posts.server";
import { calendarWindow, timeZoneOf } from "~/routes/dashboard+/calendar/calendar-view.server";
import { HttpError } from "~/utils/http.server";
import { requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { requireMemberPage } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/calendar: the content calendar. Staff see every customer's posts (filter by customer
 * and status), draft new ones and drag them to another day; a customer sees their own posts out of
 * draft, with the plan's quota, and approves or asks for changes. Month or week as a grid from md,
 * a list on phones; times in the viewer's zone. Live through `postUpdated`; forms work without JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireMemberPage(request, "calendar:own");
  const staff = can(user, "posts:manage");
  const timeZone = timeZoneOf(request);
  const url = new URL(request.url);
  const window = calendarWindow(url, timeZone);
  const askedCustomer = url.searchParams.get("customerId");
  const askedStatus = url.searchParams.get("status");
  const customerId = staff && isUuid(askedCustomer) ? askedCustomer : undefined;
  const status = staff && POST_STATUSES.includes(askedStatus as PostStatus) ? (askedStatus as PostStatus) : undefined;
  const quotaOf = staff ? customerId : ownerKey(user);
  const month = periodMonth(window.period);
  const [posts, customers, quota, calendarLink] = await Promise.all([
    listPosts(user, { customerId, status, from: window.from.toISOString(), to: window.to.toISOString() }),
    staff ? calendarCustomers().then(packCustomers) : "",
    quotaOf ? postQuota(quotaOf, zonedToUtc(`${month}-01`, "00:00", timeZone)!, zonedToUtc(`${shiftMonth(month, 1)}-01`, "00:00", timeZone)!) : null,
    staff ? null : calendarLinkFor(user.id),
  ]);
  // What changed since each post's last decision (decision 294), for both sides.
  const changes = await reviewChangesOf(posts.map((post) => post.id));
  const mayReview = staff || can(user, "post:review", { ownerId: ownerKey(user) });
  return {
    staff,
    mayReview,
    timeZone,
    // The period alone: the screen derives its days, title and neighbours (`periodView`).
    period: window.period,
    today: window.today,
    posts,
    changes,
    // Staff's customers, a line each (packCustomers): the filter and the draft form list them all.
    customers,
    quota,
    calendarLink,
    filter: { customerId: customerId ?? "", status: status ?? "" },
  };
}

/**
 * The calendar's forms, one schema per button (decision 305); each post's forms name the post. A
 * date and a time are read in the viewer's time zone after the schema (the zone is the request's).
 */
const WHEN = "Please give a date and a time.";
const postId = z.string().max(100).default("");
const reviewComment = reviewSchema.pick({ comment: true });
const calendarForm = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("create"),
      customerId: createPostSchema.shape.customerId,
      channel: createPostSchema.shape.channel,
      caption: createPostSchema.shape.caption,
      date: z.string({ error: WHEN }).max(20, WHEN),
      time: z.string({ error: WHEN }).max(10, WHEN),
    }),
    z.object({ intent: z.literal("reschedule"), postId, date: z.string({ error: "Please give a date." }).max(20, "Please give a date.") }),
    z.object({ intent: z.literal("renew_link") }),
    reviewComment.extend({ intent: z.literal("approve"), postId }),
    reviewComment.extend({ intent: z.literal("request_changes"), postId }),
    commentSchema.extend({ intent: z.literal("comment"), postId }),
  ],
  { error: "Unknown action." },
);

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const timeZone = timeZoneOf(request);
  const submission = parseWithZod(await readForm(request), { schema: calendarForm });
  const posted = String(submission.payload.intent ?? "");
  // A refused draft (an unknown or deleted customer) is told on the draft form, a post's on its card.
  const postId = posted === "create" ? "new" : String(submission.payload.postId ?? "");
  const reply = (status: number, options: Parameters<typeof submission.reply>[0] = {}) => data({ postId, result: submission.reply(options) }, { status });
  const staffOnly = ["create", "reschedule"].includes(posted) && !can(user, "posts:manage");
  const customerOnly = posted === "renew_link" && !can(user, "calendar:own");
  if (staffOnly || customerOnly) return reply(403, { formErrors: ["Unknown action."] });
  if (submission.status !== "success") return reply(400);
  const value = submission.value;
  const back = new URL(request.url);
  const to = (hash = "") => `${back.pathname}${back.search}${hash}`;
  try {
    switch (value.intent) {
      case "create": {
        const scheduledAt = zonedToUtc(value.date, value.time, timeZone);
        if (!scheduledAt) return reply(400, { fieldErrors: { date: [WHEN] } });
        const post = await createPost(user, {
          customerId: value.customerId,
          channel: value.channel,
          caption: value.caption,
          scheduledAt: scheduledAt.toISOString(),
        });
        return redirectWithToast(`/dashboard/calendar/posts/${post.id}`, { type: "success", message: "Draft saved. Add media, then send it for review." });
      }
      case "reschedule": {
        const post = await getPostFor(user, value.postId);
        const scheduledAt = zonedToUtc(value.date, formatClock(post.scheduledAt, timeZone), timeZone);
        if (!scheduledAt) return reply(400, { fieldErrors: { date: ["Please give a date."] } });
        await updatePost(user, value.postId, { scheduledAt: scheduledAt.toISOString() });
        return redirectWithToast(to(), { type: "success", message: "Post moved." });
      }
      case "renew_link":
        await renewCalendarLink(user.id);
        return redirectWithToast(to("#calendar-link-heading"), { type: "success", message: "New calendar link made. The old one no longer works." });
      case "approve":
      case "request_changes":
        await reviewPost(user, value.postId, { decision: value.intent, comment: value.comment });
        return redirectWithToast(to(`#post-${value.postId}`), {
          type: "success",
          message: value.intent === "approve" ? "Post approved." : "Changes requested.",
        });
      case "comment":
        await addPostComment(user, value.postId, value.body);
        return redirectWithToast(to(`#post-${value.postId}`), { type: "success", message: "Comment added." });
    }
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) return reply(error.status, { formErrors: [error.message] });
    throw error;
  }
}

/** Every refusal of the form that names this post (or "new": the draft form), in one line. */
function refusalFor(failed: { postId: string; result: SubmissionResult<string[]> } | undefined, postId: string): string | undefined {
  if (failed?.postId !== postId) return undefined;
  return (
    Object.values(failed.result.error ?? {})
      .flatMap((messages) => messages ?? [])
      .join(" ") || undefined
  );
}

export default function Calendar() {
  const { staff, mayReview, timeZone, period, today, posts, changes, customers: packed, quota, calendarLink, filter } = useLoaderData<typeof loader>();
  const customers = useMemo(() => unpackCustomers(packed), [packed]);
  const window = periodView(period);
  const failed = useActionData<typeof action>();
  useLivePosts(timeZone);
  const keep = new URLSearchParams({
    ...(filter.customerId ? { customerId: filter.customerId } : {}),
    ...(filter.status ? { status: filter.status } : {}),
  }).toString();
  const href = (query: string) => `?${[query, keep].filter(Boolean).join("&")}`;
  return (
    <section aria-labelledby="calendar-heading" className="space-y-5">
      <PageHeader
        id="calendar-heading"
        title="Content calendar"
        description={staff ? "Every customer's posts. Drag a post to another day to move it." : "Your posts: approve them, or tell us what to change."}
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <ButtonLink to={href(window.previous)} variant="outline" size="sm" aria-label={window.view === "week" ? "Previous week" : "Previous month"}>
            <ChevronLeft className="size-4" aria-hidden="true" />
          </ButtonLink>
          <h3 className="min-w-40 text-center text-lg font-semibold text-slate-950" data-testid="calendar-title">
            {window.title}
          </h3>
          <ButtonLink to={href(window.next)} variant="outline" size="sm" aria-label={window.view === "week" ? "Next week" : "Next month"}>
            <ChevronRight className="size-4" aria-hidden="true" />
          </ButtonLink>
        </div>
        <nav aria-label="Calendar view" className="calendar-views">
          <Link to={href(`month=${window.month}`)} aria-current={window.view === "month" ? "page" : undefined}>
            Month
          </Link>
          <Link to={href(`view=week&week=${window.view === "week" ? window.days[0] : today}`)} aria-current={window.view === "week" ? "page" : undefined}>
            Week
          </Link>
        </nav>
      </div>
      {quota ? (
        <p data-testid="post-quota" className="text-sm font-medium text-slate-700">
          {quota.included === null ? `${quota.used} ${quota.used === 1 ? "post" : "posts"} this month` : `${quota.used} of ${quota.included} posts this month`}
        </p>
      ) : null}
      {staff ? (
        <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter posts">
          {window.view === "week" ? <input type="hidden" name="view" value="week" /> : null}
          <input type="hidden" name={window.view === "week" ? "week" : "month"} value={window.view === "week" ? window.days[0] : window.month} />
          <label className="text-sm font-medium text-slate-700">
            Customer
            <select name="customerId" defaultValue={filter.customerId} className="calendar-select mt-1">
              <option value="">Every customer</option>
              {customers.map((customer) => (
                <option key={customer.id} value={customer.id}>
                  {customer.name}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium text-slate-700">
            Status
            <select name="status" defaultValue={filter.status} className="calendar-select mt-1">
              <option value="">Any status</option>
              {POST_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {POST_STATUS_LABELS[status]}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="min-h-11 rounded-full border border-slate-300 bg-white px-5 text-sm font-semibold">
            Show
          </button>
        </Form>
      ) : null}
      <CalendarBoard days={window.days} month={window.view === "month" ? window.month : null} posts={posts} timeZone={timeZone} today={today} staff={staff} />
      <p className="text-xs text-slate-500">Times in {timeZone}.</p>
      {posts.length === 0 ? (
        <EmptyState
          icon={CalendarDays}
          title="No posts in this period"
          text={staff ? "Draft one with the form below." : "Posts our team prepares for you will appear here for review."}
        />
      ) : (
        <div className="space-y-3">
          <h3 className="text-lg font-semibold text-slate-950">Posts</h3>
          <ul className="grid gap-3 lg:grid-cols-2" aria-label="Posts">
            {posts.map((post) => (
              <li key={post.id}>
                <PostCard
                  post={post}
                  timeZone={timeZone}
                  viewer={staff ? "team" : "user"}
                  error={refusalFor(failed, post.id)}
                  changes={changes[post.id]}
                  mayReview={mayReview}
                />
              </li>
            ))}
          </ul>
        </div>
      )}
      {calendarLink ? <CalendarLink url={calendarLink} /> : null}
      {staff ? <NewPostForm customers={customers} defaultCustomerId={filter.customerId} defaultDate={today} error={refusalFor(failed, "new")} /> : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Content calendar — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard" backLabel="Back to the dashboard" />;
}
