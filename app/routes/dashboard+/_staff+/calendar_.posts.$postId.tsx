import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Send, Upload } from "lucide-react";

import { ChannelSelect } from "~/components/calendar/channel-select";
import { PostCard } from "~/components/calendar/post-card";
import { useLivePosts } from "~/components/calendar/use-live-posts";
import { BackLink } from "~/components/dashboard/back-link";
import { PageHeader } from "~/components/dashboard/page-header";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { Button } from "~/components/ui/button";
import { Field, Input, Textarea } from "~/components/ui/input";
import { CAPTION_MAX, CHANNEL_LABELS, dayInZone, formatClock, MEDIA_ACCEPT, STAFF_STATUSES, zonedToUtc } from "~/domain/calendar";
import { can } from "~/domain/permissions";
import { commentSchema, reviewSchema, updatePostSchema } from "~/domain/schemas/calendar";
import { z } from "~/domain/zod";
import { reviewChangesOf, setReviewBy } from "~/models/post-approvals.server";
import { addPostComment, addPostMedia, announcePostChange, getPostFor, reviewPost, updatePost } from "~/models/posts.server";
import { timeZoneOf } from "~/routes/dashboard+/calendar/calendar-view.server";
import { HttpError } from "~/utils/http.server";
import { requireTeam, requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/calendar/posts/:postId (team): one post: edit channel, date and time (the plain form
 * that reschedules without JavaScript), caption; send it for review, take it back to draft or mark it
 * published; add images or videos; its comment thread. A customer who follows such a link to a post
 * of theirs is sent to it in their own calendar; any other post is a plain 404 page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const timeZone = timeZoneOf(request);
  const post = await getPostFor(user, params.postId ?? "").catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 404) throw pageNotFound();
    throw error;
  });
  const date = dayInZone(post.scheduledAt, timeZone);
  // getPostFor shows a customer only their own posts out of draft.
  if (!can(user, "posts:manage")) throw redirect(`/dashboard/calendar?month=${date.slice(0, 7)}#post-${post.id}`);
  const changes = await reviewChangesOf([post.id]);
  return { post, changes: changes[post.id], timeZone, date, time: formatClock(post.scheduledAt, timeZone), month: date.slice(0, 7) };
}

const statusLabels = { draft: "Back to draft", in_review: "Send for review", published: "Mark published" } as const;

/**
 * The post page's forms, one schema per button (decision 305). A date and a time are read in the
 * viewer's time zone after the schema (the zone is the request's); the page says every refusal once, above.
 */
const WHEN = "Please give a date and a time.";
const when = { date: z.string({ error: WHEN }).max(20, WHEN), time: z.string({ error: WHEN }).max(10, WHEN) };
const reviewComment = reviewSchema.pick({ comment: true });
const postForm = z.discriminatedUnion(
  "intent",
  [
    z.object({ intent: z.literal("edit"), ...when, channel: updatePostSchema.shape.channel, caption: updatePostSchema.shape.caption }),
    z.object({ intent: z.literal("status"), status: z.enum(STAFF_STATUSES, { error: "Unknown status." }) }),
    commentSchema.extend({ intent: z.literal("comment") }),
    z.object({ intent: z.literal("review_by"), ...when }),
    reviewComment.extend({ intent: z.literal("approve") }),
    reviewComment.extend({ intent: z.literal("request_changes") }),
  ],
  { error: "Unknown action." },
);

export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const timeZone = timeZoneOf(request);
  const postId = params.postId ?? "";
  const here = `/dashboard/calendar/posts/${postId}`;
  // The media form is a multipart body streamed to storage, not read as a form.
  if (new URL(request.url).searchParams.has("media")) {
    try {
      await addPostMedia(staff, postId, request);
    } catch (error) {
      if (error instanceof HttpError && error.status === 404) throw pageNotFound();
      if (error instanceof HttpError && error.status < 500) return data({ error: error.message }, { status: error.status, headers: error.headers });
      throw error;
    }
    return redirectWithToast(here, { type: "success", message: "Media added." });
  }
  const submission = parseWithZod(await readForm(request), { schema: postForm });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const value = submission.value;
  const refused = (message: string, field = "") => data({ result: submission.reply({ fieldErrors: { [field]: [message] } }) }, { status: 400 });
  try {
    switch (value.intent) {
      case "edit": {
        const scheduledAt = zonedToUtc(value.date, value.time, timeZone);
        if (!scheduledAt) return refused(WHEN, "date");
        // An emptied caption clears it.
        const { post } = await updatePost(staff, postId, { channel: value.channel, caption: value.caption ?? "", scheduledAt: scheduledAt.toISOString() });
        return redirectWithToast(here, { type: "success", message: post.status === "in_review" ? "Saved. The customer will review it again." : "Saved." });
      }
      case "status":
        await updatePost(staff, postId, { status: value.status });
        return redirectWithToast(here, { type: "success", message: `${statusLabels[value.status]}: done.` });
      case "comment":
        await addPostComment(staff, postId, value.body);
        return redirectWithToast(here, { type: "success", message: "Comment added." });
      case "review_by": {
        const reviewBy = zonedToUtc(value.date, value.time, timeZone);
        if (!reviewBy) return refused(WHEN, "date");
        await setReviewBy(postId, reviewBy);
        await announcePostChange(postId);
        return redirectWithToast(here, { type: "success", message: "Review deadline set." });
      }
      case "approve":
      case "request_changes":
        // The team's check of two_step (decision 292): another team member than the one who sent it.
        await reviewPost(staff, postId, { decision: value.intent, comment: value.comment });
        return redirectWithToast(here, { type: "success", message: value.intent === "approve" ? "Checked: the client reviews it now." : "Changes requested." });
    }
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw pageNotFound();
    if (error instanceof HttpError && error.status < 500) {
      return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: error.status, headers: error.headers });
    }
    throw error;
  }
}

/** Every refusal of the last post, in one line: the forms' result, or the media upload's own message. */
function refusalOf(answer: { result: SubmissionResult<string[]> } | { error: string } | undefined): string | null {
  if (!answer) return null;
  if ("error" in answer) return answer.error;
  return (
    Object.values(answer.result.error ?? {})
      .flatMap((messages) => messages ?? [])
      .join(" ") || null
  );
}

export default function CalendarPost() {
  const { post, changes, timeZone, date, time, month } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const navigation = useNavigation();
  useLivePosts(timeZone);
  const published = post.status === "published";
  return (
    <section aria-labelledby="post-heading" className="space-y-6">
      <BackLink to={`/dashboard/calendar?month=${month}`}>Back to the calendar</BackLink>
      <PageHeader id="post-heading" title={`${CHANNEL_LABELS[post.channel]} post for ${post.customer.name}`} />
      {refusalOf(failed) ? (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800">
          {refusalOf(failed)}
        </p>
      ) : null}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-6">
          <PostCard post={post} timeZone={timeZone} viewer="team" editLink={false} changes={changes} />
          {!published ? (
            <Form method="post" aria-labelledby="edit-heading" className="space-y-4 rounded-card border border-slate-200 bg-white p-5 shadow-card">
              <h3 id="edit-heading" className="text-lg font-semibold text-slate-950">
                Edit and reschedule
              </h3>
              <input type="hidden" name="intent" value="edit" />
              <div className="grid gap-4 sm:grid-cols-3">
                <ChannelSelect defaultValue={post.channel} />
                <Field label="Date">{(control) => <Input {...control} name="date" type="date" required defaultValue={date} key={date} />}</Field>
                <Field label={`Time (${timeZone})`}>
                  {(control) => <Input {...control} name="time" type="time" required defaultValue={time} key={time} />}
                </Field>
              </div>
              <Field label="Caption">
                {(control) => <Textarea {...control} name="caption" rows={5} maxLength={CAPTION_MAX} defaultValue={post.caption} />}
              </Field>
              <Button type="submit" loading={navigation.formData?.get("intent") === "edit"}>
                Save
              </Button>
            </Form>
          ) : null}
        </div>
        <div className="space-y-6 self-start">
          {!published ? (
            <div className="space-y-3 rounded-card border border-slate-200 bg-white p-5 shadow-card">
              <h3 className="text-lg font-semibold text-slate-950">Status</h3>
              {STAFF_STATUSES.filter((status) => status !== post.status && (status !== "published" || post.status === "approved")).map((status) => (
                <Form method="post" key={status}>
                  <input type="hidden" name="intent" value="status" />
                  <input type="hidden" name="status" value={status} />
                  <Button type="submit" variant={status === "in_review" ? "primary" : "outline"} className="w-full">
                    {status === "in_review" ? <Send className="size-4" aria-hidden="true" /> : null}
                    {statusLabels[status]}
                  </Button>
                </Form>
              ))}
            </div>
          ) : null}
          {post.status === "in_review" && post.reviewBy ? (
            <Form method="post" aria-labelledby="review-by-heading" className="space-y-3 rounded-card border border-slate-200 bg-white p-5 shadow-card">
              <h3 id="review-by-heading" className="text-lg font-semibold text-slate-950">
                Review deadline
              </h3>
              <input type="hidden" name="intent" value="review_by" />
              <Field label="Date">
                {(control) => <Input {...control} name="date" type="date" required defaultValue={dayInZone(post.reviewBy!, timeZone)} key={post.reviewBy} />}
              </Field>
              <Field label={`Time (${timeZone})`}>
                {(control) => <Input {...control} name="time" type="time" required defaultValue={formatClock(post.reviewBy!, timeZone)} key={post.reviewBy} />}
              </Field>
              <Button type="submit" variant="outline">
                Set the deadline
              </Button>
            </Form>
          ) : null}
          {!published ? (
            <Form
              // A new form once the file is added: the field is empty again for the next one.
              key={post.media.length}
              method="post"
              action="?media"
              encType="multipart/form-data"
              className="space-y-3 rounded-card border border-slate-200 bg-white p-5 shadow-card"
            >
              <h3 className="text-lg font-semibold text-slate-950">Add an image or video</h3>
              <Field label="File" hint="PNG, JPG, WebP, GIF or MP4, up to 50 MB.">
                {(control) => <Input {...control} name="file" type="file" required accept={MEDIA_ACCEPT} />}
              </Field>
              <Button type="submit" variant="outline">
                <Upload className="size-4" aria-hidden="true" />
                Upload
              </Button>
            </Form>
          ) : null}
        </div>
      </div>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Post — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/calendar" backLabel="Back to the calendar" />;
}
