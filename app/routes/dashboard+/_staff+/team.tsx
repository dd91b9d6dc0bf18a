import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { UserPlus } from "lucide-react";

import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { Field, Input } from "~/components/ui/input";
import { SectionBoundary } from "~/components/ui/section-error";
import { can } from "~/domain/permissions";
import { formatDate } from "~/domain/purchase";
import { inviteBodySchema } from "~/domain/schemas/ops";
import { z } from "~/domain/zod";
import { inviteStaff, listStaff, resendInvitation, setAccountDisabled } from "~/models/team.server";
import { getUserById } from "~/models/users.server";
import { HttpError } from "~/utils/http.server";
import { requireTeam } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/team: the staff, an invitation by e-mail (a one-hour set-password link), and
 * disabling or re-enabling an account (its sessions and sockets end at once). docs/decisions/094.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const me = await requireTeam(request);
  // The page's own shape (decision 309): ids as `id`; the API's edge is toMemberJson.
  const members = (await listStaff()).map(({ id, name, email, createdAt, state }) => ({ id, name, email, createdAt: createdAt.toISOString(), state }));
  return { members, meId: me.id, canManage: can(me, "team:manage") };
}

/**
 * The page's forms, one schema per intent: an invitation, and a member's account (disable, enable,
 * resend the invitation). Disabling asks first (decision 176): without `confirm=yes` the page
 * answers with the confirmation step. A member the model does not find is told by the model.
 */
const memberStep = { userId: z.string().max(64).default(""), confirm: z.literal("yes").optional() };
const teamForm = z.discriminatedUnion(
  "intent",
  [
    inviteBodySchema.extend({ intent: z.literal("invite") }),
    z.object({ intent: z.literal("disable"), ...memberStep }),
    z.object({ intent: z.literal("enable"), ...memberStep }),
    z.object({ intent: z.literal("resend"), ...memberStep }),
  ],
  { error: "Unknown action." },
);

export async function action({ request }: ActionFunctionArgs) {
  const me = await requireTeam(request);
  const submission = parseWithZod(await readForm(request), { schema: teamForm });
  if (!can(me, "team:manage")) throw new Response("Forbidden", { status: 403 });
  const inviting = submission.payload.intent === "invite";
  // An invitation's refusal is said on its fields; a member's account form's, above the list.
  const refuse = (message: string) => submission.reply(inviting ? { fieldErrors: { email: [message] } } : { formErrors: [message] });
  if (submission.status !== "success")
    return data({ intent: inviting ? "invite" : "account", result: inviting ? submission.reply() : refuse("Unknown action.") }, { status: 400 });
  const step = submission.value;
  try {
    if (step.intent === "invite") {
      const { member } = await inviteStaff(me, { email: step.email, name: step.name });
      return redirectWithToast("/dashboard/team", { type: "success", message: `Invitation sent to ${member.email}.` });
    }
    if (step.intent === "resend") {
      const member = await resendInvitation(me, step.userId);
      return redirectWithToast("/dashboard/team", { type: "success", message: `A new invitation is on its way to ${member.email}.` });
    }
    if (step.intent === "disable" && !step.confirm) {
      const member = await getUserById(step.userId);
      if (!member || member.id === me.id || member.disabledAt)
        return data({ intent: "account", result: refuse("This account cannot be disabled.") }, { status: 404 });
      return { intent: "confirm-disable" as const, member: { id: member.id, name: member.name, email: member.email } };
    }
    const member = await setAccountDisabled(me.id, step.userId, step.intent === "disable");
    const message = step.intent === "disable" ? `${member.name} is disabled and signed out everywhere.` : `${member.name} can sign in again.`;
    return redirectWithToast("/dashboard/team", { type: "success", message });
  } catch (error) {
    if (error instanceof HttpError) return data({ intent: step.intent, result: refuse(error.message) }, { status: error.status });
    throw error;
  }
}

type TeamData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function TeamTab() {
  return <TeamView {...useLoaderData<typeof loader>()} />;
}

const STATE_LABEL = { active: ["Active", "success"], invited: ["Invited", "warning"], disabled: ["Disabled", "danger"] } as const;

function TeamView({ members, meId, canManage }: TeamData) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const inviteErrors = actionData?.intent === "invite" && "result" in actionData ? actionData.result.error : undefined;
  const accountError = actionData && actionData.intent !== "invite" && "result" in actionData ? actionData.result.error?.[""]?.join(" ") : undefined;
  const confirmDisable = actionData && "member" in actionData ? actionData.member : null;
  return (
    <section aria-labelledby="team-heading" className="space-y-6">
      <h2 id="team-heading" className="text-xl font-bold text-slate-950">
        Team
      </h2>
      <ul className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card">
        {members.map((member) => {
          const [label, tone] = STATE_LABEL[member.state];
          return (
            <li key={member.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-4" data-testid="team-member">
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold break-words text-slate-950">{member.name}</span>
                  <Badge tone={tone}>{label}</Badge>
                  {member.id === meId ? <Badge tone="brand">You</Badge> : null}
                </p>
                {/* Only the address may break anywhere; the date keeps its words whole. */}
                <p className="text-sm text-slate-600">
                  <span className="break-all">{member.email}</span> · since <span className="whitespace-nowrap">{formatDate(member.createdAt)}</span>
                </p>
              </div>
              {member.id === meId || !canManage ? null : (
                <Form method="post" className="flex flex-wrap gap-2">
                  <input type="hidden" name="userId" value={member.id} />
                  {member.state === "invited" ? (
                    <Button type="submit" name="intent" value="resend" variant="outline" size="sm">
                      Resend invitation<span className="sr-only"> to {member.name}</span>
                    </Button>
                  ) : null}
                  {member.state === "disabled" ? (
                    <Button type="submit" name="intent" value="enable" variant="outline" size="sm">
                      Enable<span className="sr-only"> {member.name}</span>
                    </Button>
                  ) : (
                    <Button
                      type="submit"
                      name="intent"
                      value="disable"
                      variant="outline"
                      size="sm"
                      className="text-red-800 hover:border-red-700 hover:text-red-900"
                    >
                      Disable…<span className="sr-only"> {member.name}</span>
                    </Button>
                  )}
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      {confirmDisable ? (
        <ConfirmStep
          title={`Disable ${confirmDisable.name}?`}
          fields={{ intent: "disable", userId: confirmDisable.id }}
          confirmLabel={`Disable ${confirmDisable.name}`}
          cancelTo="/dashboard/team"
          busy={navigation.state === "submitting"}
        >
          <p>
            {confirmDisable.name} ({confirmDisable.email}) is signed out everywhere at once (open dashboards, the app, chat) and cannot sign in until someone
            enables the account again. Their conversations, orders and notes stay.
          </p>
        </ConfirmStep>
      ) : null}
      {accountError ? (
        <p role="alert" className="text-sm font-semibold text-red-700">
          {accountError}
        </p>
      ) : null}
      {canManage ? (
        <Form
          method="post"
          className="grid gap-4 rounded-card border border-slate-200 bg-white p-5 shadow-card sm:grid-cols-[1fr_1fr_auto] sm:items-end"
          aria-labelledby="invite-heading"
        >
          <h3 id="invite-heading" className="font-bold text-slate-950 sm:col-span-3">
            Invite a colleague
          </h3>
          <input type="hidden" name="intent" value="invite" />
          <Field label="Name" error={inviteErrors?.name}>
            {(control) => <Input {...control} name="name" autoComplete="off" required maxLength={120} />}
          </Field>
          <Field label="E-mail" error={inviteErrors?.email}>
            {(control) => <Input {...control} name="email" type="email" autoComplete="off" required />}
          </Field>
          <Button type="submit" loading={navigation.state === "submitting" && navigation.formData?.get("intent") === "invite"}>
            <UserPlus className="size-4" aria-hidden="true" />
            Send invitation
          </Button>
          <p className="text-xs text-slate-600 sm:col-span-3">They get an e-mail with a link to set their password; it works once, for one hour.</p>
        </Form>
      ) : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Team — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <SectionBoundary<TeamData> message="Failed to load the team" render={(data) => <TeamView {...data} />} />;
}
