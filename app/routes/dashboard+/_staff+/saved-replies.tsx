import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Plus, Trash2 } from "lucide-react";

import { FormAlert } from "~/components/auth/auth-layout";
import { BackLink } from "~/components/dashboard/back-link";
import { PageHeader } from "~/components/dashboard/page-header";
import { DashboardRouteError } from "~/components/dashboard/route-error";
import { Button } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Field, Input, Textarea } from "~/components/ui/input";
import { SAVED_REPLY_PLACEHOLDERS } from "~/domain/inbox";
import { REPLY_BODY_MAX, REPLY_TITLE_MAX, savedReplySchema } from "~/domain/schemas/workspace";
import { z } from "~/domain/zod";
import { createSavedReply, deleteSavedReply, listSavedReplies } from "~/models/saved-replies.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { pageNotFound } from "~/web/guards.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/saved-replies (team): the team's saved replies, which staff insert from the inbox's
 * message box; add one (title and text, with field errors) or delete one. Forms: no JavaScript needed.
 */
// Each button's intent with its own fields; a reply's id is checked by the model (an unknown one is a 404).
const savedReplyForm = z.discriminatedUnion(
  "intent",
  [savedReplySchema.extend({ intent: z.literal("create") }), z.object({ intent: z.literal("delete"), replyId: z.string().max(100).default("") })],
  { error: "Unknown action." },
);

export async function loader({ request }: LoaderFunctionArgs) {
  await requireTeam(request);
  return { replies: await listSavedReplies() };
}

export async function action({ request }: ActionFunctionArgs) {
  const staff = await requireTeam(request);
  const submission = parseWithZod(await readForm(request), { schema: savedReplyForm });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  if (submission.value.intent === "delete") {
    await deleteSavedReply(submission.value.replyId).catch((error: { status?: number }) => {
      if (error.status === 404) throw pageNotFound();
      throw error;
    });
    return redirectWithToast("/dashboard/saved-replies", { type: "success", message: "Saved reply deleted." });
  }
  const { title, body } = submission.value;
  const reply = await createSavedReply(staff, { title, body });
  return redirectWithToast("/dashboard/saved-replies", { type: "success", message: `Saved “${reply.title}”.` });
}

export default function SavedReplies() {
  const { replies } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "new-saved-reply",
    lastResult: navigation.state === "idle" ? answer?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: savedReplyForm }),
  });
  const busy = (intent: string, id?: string) =>
    navigation.state !== "idle" && navigation.formData?.get("intent") === intent && (!id || navigation.formData?.get("replyId") === id);
  return (
    <section aria-labelledby="replies-heading" className="space-y-6">
      <BackLink to="/dashboard/inbox">Back to the inbox</BackLink>
      <PageHeader id="replies-heading" title="Saved replies" description="Answers the team sends often: insert one from the inbox's message box." />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        {replies.length === 0 ? (
          <EmptyState icon={Plus} title="No saved replies yet" text="Add the first one with the form." />
        ) : (
          <ul aria-label="Saved replies" className="divide-y divide-slate-200 self-start rounded-card border border-slate-200 bg-white shadow-card">
            {replies.map((reply) => (
              <li key={reply.id} data-testid="saved-reply" className="flex items-start justify-between gap-3 px-4 py-3">
                <div className="min-w-0">
                  <p className="font-semibold break-words text-slate-950">{reply.title}</p>
                  <p className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-700">{reply.body}</p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="replyId" value={reply.id} />
                  <Button type="submit" variant="ghost" size="sm" loading={busy("delete", reply.id)}>
                    <Trash2 className="size-4" aria-hidden="true" />
                    Delete<span className="sr-only"> “{reply.title}”</span>
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <Form
          method="post"
          {...getFormProps(form)}
          aria-labelledby="new-reply-heading"
          className="space-y-4 self-start rounded-card border border-slate-200 bg-white p-5 shadow-card"
        >
          <h3 id="new-reply-heading" className="text-lg font-semibold text-slate-950">
            Add a saved reply
          </h3>
          <input type="hidden" name="intent" value="create" />
          <FormAlert id={form.errorId} errors={[...(form.errors ?? []), ...(fields.intent.errors ?? [])]} />
          <Field id={fields.title.id} label="Title" error={fields.title.errors}>
            {(control) => <Input {...control} name="title" required maxLength={REPLY_TITLE_MAX} autoComplete="off" />}
          </Field>
          <Field id={fields.body.id} label="Reply" error={fields.body.errors}>
            {(control) => <Textarea {...control} name="body" rows={5} required maxLength={REPLY_BODY_MAX} />}
          </Field>
          <p data-testid="reply-placeholders" className="text-sm text-slate-600">
            Filled in for each customer when the reply is used:{" "}
            {Object.entries(SAVED_REPLY_PLACEHOLDERS).map(([placeholder, meaning], index, all) => (
              <span key={placeholder}>
                <code className="rounded bg-slate-100 px-1 font-mono text-slate-800">{placeholder}</code> {meaning}
                {index < all.length - 1 ? ", " : "."}
              </span>
            ))}
          </p>
          <Button type="submit" loading={busy("create")}>
            <Plus className="size-4" aria-hidden="true" />
            Save reply
          </Button>
        </Form>
      </div>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Saved replies — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <DashboardRouteError backTo="/dashboard/inbox" backLabel="Back to the inbox" />;
}
