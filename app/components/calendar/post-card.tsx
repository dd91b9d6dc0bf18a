import { Form, Link, useNavigation } from "@remix-run/react";
import { Check, PencilLine } from "lucide-react";

import { Button } from "~/components/ui/button";
import { MessageSquare } from "~/components/ui/icons";
import { Field, Textarea } from "~/components/ui/input";
import { CHANNEL_LABELS, COMMENT_MAX, formatPostTime, type Post, type ReviewChanges } from "~/domain/calendar";

import { PostStatusBadge } from "./post-status-badge";
import { ReviewSummary } from "./review-summary";

/**
 * One post in full: channel, time in the viewer's zone, status, caption, media and its comment
 * thread. The customer reviews it here (approve, or ask for changes with a comment); staff open it
 * to edit. Plain forms: they work without JavaScript.
 */
export function PostCard({
  post,
  timeZone,
  viewer,
  error,
  editLink = true,
  changes,
  mayReview = true,
}: {
  post: Post;
  timeZone: string;
  viewer: "team" | "user";
  error?: string;
  editLink?: boolean;
  /** The words changed since the last decision, when it was edited since. */
  changes?: ReviewChanges;
  /** Whether the viewer's role covers approving (a client's member without it sees no review forms). */
  mayReview?: boolean;
}) {
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent && navigation.formData?.get("postId") === post.id;
  const headingId = `post-${post.id}-heading`;
  return (
    <article id={`post-${post.id}`} aria-labelledby={headingId} data-testid="post-card" className="post-card">
      <header>
        <div>
          <h3 id={headingId}>
            {CHANNEL_LABELS[post.channel]}
            {viewer === "team" ? <span> · {post.customer.name}</span> : null}
          </h3>
          <p>
            <time dateTime={post.scheduledAt}>{formatPostTime(post.scheduledAt, timeZone)}</time>
          </p>
        </div>
        <PostStatusBadge status={post.status} />
      </header>
      {post.caption ? (
        <p className="text-sm break-words whitespace-pre-wrap text-slate-800">{post.caption}</p>
      ) : (
        <p className="text-sm text-slate-500 italic">No caption yet.</p>
      )}
      <ReviewSummary post={post} timeZone={timeZone} changes={changes} />
      {post.media.length > 0 ? (
        <ul aria-label="Media" className="flex flex-wrap gap-2">
          {post.media.map((file) => (
            <li key={file.id}>
              {file.mimeType.startsWith("video/") ? (
                <video src={file.url} controls preload="metadata" className="h-32 max-w-full rounded-lg bg-slate-100" aria-label="Video of the post" />
              ) : (
                <img src={file.url} alt="Image of the post" loading="lazy" className="h-32 max-w-full rounded-lg bg-slate-100 object-cover" />
              )}
            </li>
          ))}
        </ul>
      ) : null}
      {post.permalink ? (
        <p className="text-sm text-slate-700">
          Live
          {post.publishedAt ? (
            <>
              {" "}
              since <time dateTime={post.publishedAt}>{formatPostTime(post.publishedAt, timeZone)}</time>
            </>
          ) : null}
          :{" "}
          <a href={post.permalink} target="_blank" rel="noopener noreferrer nofollow" className="font-semibold break-all text-brand-700 underline">
            {post.permalink}
          </a>
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {mayReview && post.status === "in_review" && (viewer === "user" ? post.stage !== "team" : post.stage === "team") ? (
        <div className="space-y-3 rounded-xl bg-amber-50 p-3">
          <Form method="post" preventScrollReset>
            <input type="hidden" name="postId" value={post.id} />
            <input type="hidden" name="intent" value="approve" />
            <Button type="submit" size="sm" loading={busy("approve")}>
              <Check className="size-4" aria-hidden="true" />
              Approve
              <span className="sr-only">
                {" "}
                the {CHANNEL_LABELS[post.channel]} post of {formatPostTime(post.scheduledAt, timeZone)}
              </span>
            </Button>
          </Form>
          <Form method="post" preventScrollReset className="space-y-2">
            <input type="hidden" name="postId" value={post.id} />
            <input type="hidden" name="intent" value="request_changes" />
            <Field label="What should change?">{(control) => <Textarea {...control} name="comment" rows={2} required maxLength={COMMENT_MAX} />}</Field>
            <Button type="submit" size="sm" variant="outline" loading={busy("request_changes")}>
              <PencilLine className="size-4" aria-hidden="true" />
              Request changes
            </Button>
          </Form>
        </div>
      ) : null}
      <details className="group" open={post.comments.length > 0 && post.status === "changes_requested" ? true : undefined}>
        <summary>
          <MessageSquare className="size-4" aria-hidden="true" />
          {post.comments.length === 0 ? "Comments" : `Comments (${post.comments.length})`}
        </summary>
        <ol aria-label="Comments">
          {post.comments.map((comment) => (
            <li key={comment.id} className="rounded-lg bg-slate-50 p-2 text-sm">
              <p className="font-semibold text-slate-900">
                {comment.author?.name ?? "Former account"}
                {comment.author?.role === "team" ? <span className="font-normal text-slate-600"> · BrandLift</span> : null}
              </p>
              <p className="break-words whitespace-pre-wrap text-slate-800">{comment.body}</p>
            </li>
          ))}
        </ol>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="postId" value={post.id} />
          <input type="hidden" name="intent" value="comment" />
          <Field label="Add a comment">{(control) => <Textarea {...control} name="body" rows={2} required maxLength={COMMENT_MAX} />}</Field>
          <Button type="submit" size="sm" variant="outline" loading={busy("comment")}>
            Comment
          </Button>
        </Form>
      </details>
      {viewer === "team" && editLink ? (
        <Link to={`/dashboard/calendar/posts/${post.id}`}>
          Edit post<span className="sr-only">{` for ${post.customer.name}`}</span>
        </Link>
      ) : null}
    </article>
  );
}
