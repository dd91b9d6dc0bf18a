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
  if (!can(user, "posts:manage")) throw redirect(`/dashboard/calendar?month=${date.slice(0, 7)}#post-${post._id}`);
  const changes = await reviewChangesOf([post._id]);
  return { post, changes: changes[post._id], timeZone, date, time: formatClock(post.scheduledAt, timeZone), month: date.slice(0, 7) };
}

const statusLabels = { draft: "Back to draft", in_review: "Send for review", published: "Mark published" } as const;

export async function action({ request, params }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const timeZone = timeZoneOf(request);
  const postId = params.postId ?? "";
  const here = `/dashboard/calendar/posts/${postId}`;
  try {
    if (new URL(request.url).searchParams.has("media")) {
      await addPostMedia(staff, postId, request);
      return redirectWithToast(here, { type: "success", message: "Media added." });
    }
    const form = await readForm(request);
    const intent = String(form.get("intent") ?? "");
    if (intent === "edit") {
      const scheduledAt = zonedToUtc(String(form.get("date") ?? ""), String(form.get("time") ?? ""), timeZone);
      if (!scheduledAt) return data({ error: "Please give a date and a time." }, { status: 400 });
      const parsed = updatePostSchema.safeParse({ channel: form.get("channel"), caption: form.get("caption") ?? "", scheduledAt: scheduledAt.toISOString() });
      if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
      const { post } = await updatePost(staff, postId, parsed.data);
      return redirectWithToast(here, { type: "success", message: post.status === "in_review" ? "Saved. The customer will review it again." : "Saved." });
    }
    if (intent === "status") {
      const parsed = updatePostSchema.safeParse({ status: form.get("status") });
      if (!parsed.success || !parsed.data.status) return data({ error: "Unknown status." }, { status: 400 });
      await updatePost(staff, postId, { status: parsed.data.status });
      return redirectWithToast(here, { type: "success", message: `${statusLabels[parsed.data.status]}: done.` });
    }
    if (intent === "comment") {
      const parsed = commentSchema.safeParse({ body: form.get("body") ?? "" });
      if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
      await addPostComment(staff, postId, parsed.data.body);
      return redirectWithToast(here, { type: "success", message: "Comment added." });
    }
    if (intent === "review_by") {
      const reviewBy = zonedToUtc(String(form.get("date") ?? ""), String(form.get("time") ?? ""), timeZone);
      if (!reviewBy) return data({ error: "Please give a date and a time." }, { status: 400 });
      await setReviewBy(postId, reviewBy);
      await announcePostChange(postId);
      return redirectWithToast(here, { type: "success", message: "Review deadline set." });
    }
    if (intent === "approve" || intent === "request_changes") {
      // The team's check of two_step (decision 292): another team member than the one who sent it.
      const parsed = reviewSchema.safeParse({ decision: intent, comment: form.get("comment") ?? undefined });
      if (!parsed.success) return data({ error: parsed.error.issues[0]!.message }, { status: 400 });
      await reviewPost(staff, postId, parsed.data);
      return redirectWithToast(here, { type: "success", message: intent === "approve" ? "Checked: the client reviews it now." : "Changes requested." });
    }
    return data({ error: "Unknown action." }, { status: 400 });
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) throw pageNotFound();
    if (error instanceof HttpError && error.status < 500) return data({ error: error.message }, { status: error.status, headers: error.headers });
    throw error;
  }
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
      {failed?.error ? (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800">
          {failed.error}
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
