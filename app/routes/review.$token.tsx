import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useParams } from "@remix-run/react";

import { AuthLayout, authLinks } from "~/components/auth/auth-layout";
import { Button, ButtonLink } from "~/components/ui/button";
import { Field, Textarea } from "~/components/ui/input";
import { CHANNEL_LABELS, COMMENT_MAX, formatPostTime } from "~/domain/calendar";
import { reviewSchema } from "~/domain/schemas/calendar";
import { checkReviewLink, decideByLink } from "~/models/review-links.server";
import { HttpError } from "~/utils/http.server";
import { readForm } from "~/web/body-limit.server";

export const links = authLinks;

/**
 * /review/:token: the link a review e-mail gives one member for one post (decision 293). It shows the
 * post and a plain form (no sign-in, no JavaScript needed): Approve, or Ask for changes with a
 * comment, recorded under that member's name. Opening it changes nothing (a mail scanner's visit is
 * harmless); a link altered, for another post or member, spent, expired, or whose member may no
 * longer approve is refused with a page that says why, and nothing is recorded.
 */

export async function loader({ params }: LoaderFunctionArgs) {
  const check = await checkReviewLink(params.token ?? "");
  if (!check.ok) return data({ refused: check.message, post: null, memberName: "" }, { status: check.status });
  return { refused: null, post: check.post, memberName: check.member.name };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: reviewSchema });
  if (submission.status !== "success") return data({ done: null, refused: null, result: submission.reply() }, { status: 400 });
  try {
    const outcome = await decideByLink(params.token ?? "", submission.value);
    if (!outcome.ok) return data({ done: null, refused: outcome.message, result: null }, { status: outcome.status });
    return { done: submission.value.decision, refused: null, result: null };
  } catch (error) {
    if (error instanceof HttpError && error.status === 400)
      return data({ done: null, refused: null, result: submission.reply({ formErrors: [error.message] }) }, { status: 400 });
    throw error;
  }
}

// The token in this URL never goes to another site in a Referer; "same-origin" keeps the form's Origin (see account.undo-email).
export const headers: HeadersFunction = () => ({ "Cache-Control": "no-store", "Referrer-Policy": "same-origin" });

export default function ReviewByLink() {
  const { refused, post, memberName } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { token } = useParams();
  if (answer?.done) {
    return (
      <AuthLayout
        title={answer.done === "approve" ? "Post approved" : "Changes requested"}
        subtitle={answer.done === "approve" ? "Thank you: our team has been told." : "Thank you: our team will make the changes and send the post again."}
      >
        <ButtonLink to="/login?redirectTo=/dashboard/calendar" className="w-full" size="lg">
          Sign in to see your calendar
        </ButtonLink>
      </AuthLayout>
    );
  }
  const refusal = answer?.refused ?? refused;
  // A decision refused as sent (not one of the two) or by the model (changes asked without a comment): said above the forms.
  const formError = [...(answer?.result?.error?.[""] ?? []), ...(answer?.result?.error?.decision ?? [])].join(" ");
  if (refusal || !post) {
    return (
      <AuthLayout title="This review link cannot be used" subtitle={refusal}>
        <ButtonLink to="/login?redirectTo=/dashboard/calendar" className="w-full" size="lg">
          Sign in to review
        </ButtonLink>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout
      title={`Review the ${CHANNEL_LABELS[post.channel]} post`}
      subtitle={
        <>
          For {post.customerName}, to go out on <time dateTime={post.scheduledAt}>{formatPostTime(post.scheduledAt, "UTC")}</time>. You decide as{" "}
          <strong>{memberName}</strong>.
        </>
      }
    >
      <article aria-label="The post" className="space-y-3 rounded-card border border-slate-200 bg-white p-4">
        {post.caption ? (
          <p className="text-sm break-words whitespace-pre-wrap text-slate-800" data-testid="review-caption">
            {post.caption}
          </p>
        ) : (
          <p className="text-sm text-slate-500 italic">No caption yet.</p>
        )}
        {post.media.length > 0 ? (
          <ul aria-label="Media" className="flex flex-wrap gap-2">
            {post.media.map((file) => (
              <li key={file.id}>
                {file.mimeType.startsWith("video/") ? (
                  <video
                    src={`/review/${token}/media/${file.id}`}
                    controls
                    preload="metadata"
                    className="h-32 max-w-full rounded-lg bg-slate-100"
                    aria-label="Video of the post"
                  />
                ) : (
                  <img src={`/review/${token}/media/${file.id}`} alt="Image of the post" className="h-32 max-w-full rounded-lg bg-slate-100 object-cover" />
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </article>
      {formError ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {formError}
        </p>
      ) : null}
      <form method="post" className="mt-4">
        <input type="hidden" name="decision" value="approve" />
        <Button type="submit" className="w-full" size="lg">
          Approve
        </Button>
      </form>
      <form method="post" className="mt-4 space-y-2">
        <input type="hidden" name="decision" value="request_changes" />
        <Field label="What should change?" error={answer?.result?.error?.comment ?? undefined}>
          {(control) => <Textarea {...control} name="comment" rows={3} required maxLength={COMMENT_MAX} />}
        </Field>
        <Button type="submit" variant="outline" className="w-full">
          Ask for changes
        </Button>
      </form>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Review a post | BrandLift" }, { name: "robots", content: "noindex" }];
