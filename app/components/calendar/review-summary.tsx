import { Badge } from "~/components/ui/badge";
import { formatPostTime, type Post, type ReviewChanges } from "~/domain/calendar";

/**
 * A post's review for both sides (decisions 292 and 294): its deadline, overdue, who checks it now,
 * each decision by name, and the words changed since the revision last decided on, as <ins>/<del>
 * with the words "added" and "removed" for screen readers (never colour alone).
 */
export function ReviewSummary({ post, timeZone, changes }: { post: Post; timeZone: string; changes?: ReviewChanges }) {
  const waiting = post.status === "in_review";
  if (!post.reviewBy && post.approvals.length === 0 && !changes) return null;
  return (
    <div className="space-y-2 text-sm" data-testid="post-review">
      {waiting && post.reviewBy ? (
        <p className="flex flex-wrap items-center gap-2 text-slate-700">
          <span>
            Review by <time dateTime={post.reviewBy}>{formatPostTime(post.reviewBy, timeZone)}</time>
            {post.stage === "team" ? " · our team checks it first" : ""}
          </span>
          {post.overdue ? <Badge tone="danger">Overdue</Badge> : null}
        </p>
      ) : null}
      {post.approvals.length > 0 ? (
        <ul aria-label="Decisions" className="space-y-1 text-slate-700">
          {post.approvals.map((approval) => (
            <li key={`${approval.member.id}-${approval.at}`}>
              {approval.member.name} {approval.decision === "approve" ? "approved" : "asked for changes"} ·{" "}
              <time dateTime={approval.at}>{formatPostTime(approval.at, timeZone)}</time>
            </li>
          ))}
        </ul>
      ) : null}
      {changes ? (
        <details className="rounded-lg bg-slate-50 p-2" open>
          <summary className="cursor-pointer font-semibold text-slate-900">
            Changed since the last review (revision {changes.reviewed} → {changes.current})
          </summary>
          <p className="mt-1 break-words whitespace-pre-wrap text-slate-800" data-testid="caption-diff">
            {changes.caption.map((part, i) =>
              part.added ? (
                <ins key={i} className="bg-green-100 font-semibold text-green-900 underline">
                  <span className="sr-only">[added: </span>
                  {part.value}
                  <span className="sr-only">]</span>
                </ins>
              ) : part.removed ? (
                <del key={i} className="bg-red-100 text-red-900 line-through">
                  <span className="sr-only">[removed: </span>
                  {part.value}
                  <span className="sr-only">]</span>
                </del>
              ) : (
                <span key={i}>{part.value}</span>
              ),
            )}
          </p>
          {changes.mediaAdded || changes.mediaRemoved ? (
            <p className="mt-1 text-slate-700">
              {[
                changes.mediaAdded ? `${changes.mediaAdded} file${changes.mediaAdded === 1 ? "" : "s"} added` : "",
                changes.mediaRemoved ? `${changes.mediaRemoved} removed` : "",
              ]
                .filter(Boolean)
                .join(", ")}
            </p>
          ) : null}
        </details>
      ) : null}
    </div>
  );
}
