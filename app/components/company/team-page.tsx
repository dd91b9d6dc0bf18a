import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "@remix-run/react";
import { UserPlus } from "lucide-react";

import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { Field, FieldError, Input } from "~/components/ui/input";
import { useIsPending } from "~/components/ui/use-is-pending";
import { CLIENT_ROLE_LABELS, CLIENT_ROLES, type ClientMember, type ClientRole } from "~/domain/clients";
import { formatDate } from "~/domain/purchase";
import { clientNameSchema, inviteMemberSchema } from "~/domain/schemas/clients";

/*
 * The Team page's views (decision 295): the members, an owner's forms, the confirmation of a
 * removal or a leave. Every form is a plain POST to the page; its refusal comes back beside it.
 */

/** The page action's answer, for the form it belongs to. */
export type CompanyAction =
  | { intent: "rename" | "invite"; result: SubmissionResult<string[]> }
  | { intent: "role" | "remove" | "leave"; userId: string; result: SubmissionResult<string[]> }
  | { intent: "unknown"; result: SubmissionResult<string[]> }
  | { intent: "confirm"; leaving: boolean; member: { id: string; name: string; email: string } };

/** What each role covers, in one line (the role table of docs/permissions.md). */
const ROLE_SCOPES: Record<ClientRole, string> = {
  owner: "Everything: the work, chat, approvals, plans and billing, and this team.",
  approver: "Services, reports, the calendar and briefs; chats, and approves posts or asks for changes.",
  member: "Services, reports, the calendar and briefs; chats, answers briefs and comments on posts.",
  billing: "Only plans, receipts and billing: buys, switches or cancels a plan.",
};

/** What the signed-in member's own role lets them do, under the company's name. */
export function OwnRole({ role }: { role: ClientRole }) {
  return (
    <p className="text-sm text-slate-700">
      You are <span className="font-semibold">{CLIENT_ROLE_LABELS[role].toLowerCase()}</span>:{" "}
      {ROLE_SCOPES[role].charAt(0).toLowerCase() + ROLE_SCOPES[role].slice(1)}
    </p>
  );
}

const PATH = "/dashboard/company";
const card = "rounded-card border border-slate-200 bg-white p-5 shadow-card";
const formErrors = (result: SubmissionResult<string[]> | undefined, field = "") => result?.error?.[field] ?? undefined;

export function MemberList({
  members,
  meId,
  canManage,
  managing,
  owners,
  actionData,
}: {
  members: ClientMember[];
  meId: string;
  canManage: boolean;
  /** The member whose role and removal forms are open. */
  managing: string | null;
  owners: number;
  actionData: CompanyAction | undefined;
}) {
  const confirm = actionData?.intent === "confirm" ? actionData : null;
  return (
    <>
      <ul className="divide-y divide-slate-200 rounded-card border border-slate-200 bg-white shadow-card" aria-label="Members">
        {members.map((member) => {
          const me = member.id === meId;
          const lastOwner = me && member.role === "owner" && owners === 1;
          const refusal = actionData && "userId" in actionData && actionData.userId === member.id ? actionData : null;
          const error = refusal ? [...(formErrors(refusal.result) ?? []), ...(formErrors(refusal.result, "role") ?? [])] : null;
          return (
            <li key={member.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 py-4" data-testid="client-member">
              {/* Phones: the member's actions go under their name and address. */}
              <div className="min-w-0 basis-full sm:basis-0 sm:flex-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold break-words text-slate-950">{member.name}</span>
                  <Badge tone={member.role === "owner" ? "brand" : "neutral"}>{CLIENT_ROLE_LABELS[member.role]}</Badge>
                  {member.joinedAt ? null : <Badge tone="warning">Invited</Badge>}
                  {me ? <Badge tone="accent">You</Badge> : null}
                </p>
                <p className="text-sm text-slate-600">
                  <span className="break-all">{member.email}</span>
                  {member.joinedAt ? (
                    <>
                      {" "}
                      · joined <span className="whitespace-nowrap">{formatDate(member.joinedAt)}</span>
                    </>
                  ) : null}
                </p>
                {lastOwner ? <p className="mt-1 text-sm text-slate-700">You are the only owner: make someone else an owner before you can leave.</p> : null}
              </div>
              <div className="flex flex-wrap items-center gap-2">
                {canManage && managing !== member.id && !lastOwner ? (
                  <Link to={`?member=${member.id}`} preventScrollReset className="text-sm font-semibold text-brand-700 underline-offset-2 hover:underline">
                    Change role{me ? null : " or remove"}
                    <span className="sr-only"> of {member.name}</span>
                  </Link>
                ) : null}
                {managing === member.id ? (
                  <Form method="post" className="flex items-center gap-2" preventScrollReset>
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="userId" value={member.id} />
                    <select
                      name="role"
                      defaultValue={member.role}
                      aria-label={`Role of ${member.name}`}
                      className="min-h-11 rounded-xl border border-slate-300 bg-white px-3 text-sm"
                    >
                      {CLIENT_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {CLIENT_ROLE_LABELS[role]}
                        </option>
                      ))}
                    </select>
                    <Button type="submit" variant="outline" size="sm">
                      Change<span className="sr-only"> the role of {member.name}</span>
                    </Button>
                  </Form>
                ) : null}
                {me && !lastOwner ? <MemberButton intent="leave" userId={member.id} label="Leave" name="" /> : null}
                {!me && managing === member.id ? <MemberButton intent="remove" userId={member.id} label="Remove" name={member.name} /> : null}
              </div>
              {error && error.length > 0 ? <FieldError id={`member-${member.id}-error`} errors={error} className="w-full" /> : null}
            </li>
          );
        })}
      </ul>
      {confirm ? <ConfirmLeaveOrRemove confirm={confirm} /> : null}
      {actionData?.intent === "unknown" ? (
        <FieldError id="company-error" errors={[...new Set(Object.values(actionData.result.error ?? {}).flatMap((messages) => messages ?? []))]} />
      ) : null}
    </>
  );
}

function MemberButton({ intent, userId, label, name }: { intent: "leave" | "remove"; userId: string; label: string; name: string }) {
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="userId" value={userId} />
      <Button type="submit" variant="outline" size="sm" className="text-red-800 hover:border-red-700 hover:text-red-900">
        {label}…{name ? <span className="sr-only"> {name}</span> : null}
      </Button>
    </Form>
  );
}

function ConfirmLeaveOrRemove({ confirm }: { confirm: Extract<CompanyAction, { intent: "confirm" }> }) {
  const busy = useIsPending({ field: { name: "confirm", value: "yes" } });
  const { member, leaving } = confirm;
  return leaving ? (
    <ConfirmStep title="Leave your company?" fields={{ intent: "leave", userId: member.id }} confirmLabel="Leave and sign out" cancelTo={PATH} busy={busy}>
      <p>
        You are signed out everywhere at once and can no longer sign in with {member.email}. What you wrote stays, under your name. An owner can invite you
        again.
      </p>
    </ConfirmStep>
  ) : (
    <ConfirmStep
      title={`Remove ${member.name}?`}
      fields={{ intent: "remove", userId: member.id }}
      confirmLabel={`Remove ${member.name}`}
      cancelTo={PATH}
      busy={busy}
    >
      <p>
        {member.name} ({member.email}) is signed out everywhere at once and can no longer sign in. What they wrote stays, under their name.
      </p>
    </ConfirmStep>
  );
}

export function InviteMemberForm({ actionData }: { actionData: CompanyAction | undefined }) {
  const [form, fields] = useForm({
    id: "invite-member",
    lastResult: actionData?.intent === "invite" ? actionData.result : undefined,
    constraint: getZodConstraint(inviteMemberSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { role: "member" },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteMemberSchema }),
  });
  const busy = useIsPending({ field: { name: "intent", value: "invite" } });
  const { key: nameKey, ...nameProps } = getInputProps(fields.name, { type: "text" });
  const { key: emailKey, ...emailProps } = getInputProps(fields.email, { type: "email" });
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="invite-heading" className={`${card} space-y-4`}>
      <h3 id="invite-heading" className="font-bold text-slate-950">
        Invite a colleague
      </h3>
      <input type="hidden" name="intent" value="invite" />
      <FieldError id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={fields.name.id} label="Name" error={fields.name.errors}>
          <Input key={nameKey} {...nameProps} autoComplete="off" />
        </Field>
        <Field id={fields.email.id} label="E-mail" error={fields.email.errors}>
          <Input key={emailKey} {...emailProps} autoComplete="off" />
        </Field>
      </div>
      <fieldset className="space-y-2" aria-describedby={fields.role.errors ? fields.role.errorId : undefined}>
        <legend className="text-sm font-semibold text-slate-800">Role</legend>
        {CLIENT_ROLES.map((role) => (
          <label key={role} className="flex gap-3 rounded-xl border border-slate-200 px-3 py-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
            <input type="radio" name={fields.role.name} value={role} defaultChecked={fields.role.initialValue === role} className="mt-1 accent-brand-600" />
            <span className="text-sm">
              <span className="font-semibold text-slate-950">{CLIENT_ROLE_LABELS[role]}</span>
              <span className="block text-slate-600">{ROLE_SCOPES[role]}</span>
            </span>
          </label>
        ))}
        <FieldError id={fields.role.errorId} errors={fields.role.errors} />
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" loading={busy}>
          <UserPlus className="size-4" aria-hidden="true" />
          Send invitation
        </Button>
        <p className="text-xs text-slate-600">They get an e-mail with a link to set their password; it works once, for 7 days.</p>
      </div>
    </Form>
  );
}

export function ClientNameForm({ name, actionData }: { name: string; actionData: CompanyAction | undefined }) {
  const [form, fields] = useForm({
    id: "client-name",
    lastResult: actionData?.intent === "rename" ? actionData.result : undefined,
    constraint: getZodConstraint(clientNameSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: { name },
    onValidate: ({ formData }) => parseWithZod(formData, { schema: clientNameSchema }),
  });
  const busy = useIsPending({ field: { name: "intent", value: "rename" } });
  const { key, ...props } = getInputProps(fields.name, { type: "text" });
  return (
    <Form method="post" {...getFormProps(form)} aria-labelledby="rename-heading" className={`${card} space-y-4`}>
      <h3 id="rename-heading" className="font-bold text-slate-950">
        Company name
      </h3>
      <input type="hidden" name="intent" value="rename" />
      <FieldError id={form.errorId} errors={form.errors} />
      <div className="flex flex-wrap items-end gap-3">
        <Field id={fields.name.id} label="Name" error={fields.name.errors} className="min-w-0 flex-1">
          <Input key={key} {...props} autoComplete="organization" />
        </Field>
        <Button type="submit" variant="outline" loading={busy}>
          Rename
        </Button>
      </div>
    </Form>
  );
}
