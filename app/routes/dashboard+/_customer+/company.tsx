import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";

import { ClientNameForm, InviteMemberForm, MemberList, OwnRole, type CompanyAction } from "~/components/company/team-page";
import { SectionBoundary } from "~/components/ui/section-error";
import { CLIENT_ROLE_LABELS } from "~/domain/clients";
import { can } from "~/domain/permissions";
import { clientNameSchema, inviteMemberSchema, memberRoleSchema } from "~/domain/schemas/clients";
import { z } from "~/domain/zod";
import { changeMemberRole, getOwnClient, inviteMember, removeMember, renameClient } from "~/models/clients.server";
import { HttpError } from "~/utils/http.server";
import { requireUser, sessionCookie } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { httpErrorInit } from "~/web/form-reply.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * /dashboard/company: the client's name and members. Every member sees them and may leave; an owner
 * renames the client, invites, changes roles and removes (decision 295). Plain forms: each answers
 * with its reply beside it, or redirects here with the confirmation drawn on the page (decision 281).
 */

const PATH = "/dashboard/company";
/** One schema per button (decision 305); a member's id is looked up among the client's members. */
const UNKNOWN = "Unknown action.";
const memberId = z.string({ error: UNKNOWN }).max(64, UNKNOWN);
const confirm = z.literal("yes").optional();
const companyForm = z.discriminatedUnion(
  "intent",
  [
    clientNameSchema.extend({ intent: z.literal("rename") }),
    inviteMemberSchema.extend({ intent: z.literal("invite") }),
    memberRoleSchema.extend({ intent: z.literal("role"), userId: memberId }),
    z.object({ intent: z.literal("remove"), userId: memberId, confirm }),
    z.object({ intent: z.literal("leave"), userId: memberId, confirm }),
  ],
  { error: UNKNOWN },
);
const ownerOnly = () => new Response("Only an owner of the client can do this.", { status: 403 });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!can(user, "client:read")) throw redirect("/dashboard/users");
  const own = await getOwnClient(user);
  const canManage = can(user, "client:manage");
  // `?member=<id>`: an owner opened one member's role and removal forms (one row's forms, not fifty).
  const asked = new URL(request.url).searchParams.get("member");
  return {
    ...own,
    meId: user.id,
    canManage,
    managing: canManage && own.members.some((member) => member.id === asked) ? asked : null,
    owners: own.members.filter((member) => member.role === "owner").length,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (!can(user, "client:read")) throw new Response("Not allowed", { status: 403 });
  const submission = parseWithZod(await readForm(request), { schema: companyForm });
  const refuse = (error: unknown, reply: (message: string) => CompanyAction) => {
    if (error instanceof HttpError) return data(reply(error.message), httpErrorInit(error));
    throw error;
  };
  const formError = (message: string) => submission.reply({ formErrors: [message] });
  const posted = submission.payload.intent;

  // The client's own forms: only an owner, whatever was typed.
  if (posted === "rename" || posted === "invite") {
    if (!can(user, "client:manage")) throw ownerOnly();
    if (submission.status !== "success") return data({ intent: posted, result: submission.reply() } satisfies CompanyAction, { status: 400 });
  }
  // A member's step names a known step and a member; a role's own errors are said on that member's row.
  const errors = submission.status === "success" ? null : (submission.error ?? {});
  if (errors && Object.entries(errors).some(([field, messages]) => field !== "role" && messages?.length)) {
    return data({ intent: "unknown", result: submission.reply() } satisfies CompanyAction, { status: 400 });
  }
  const value = submission.status === "success" ? submission.value : null;

  if (value?.intent === "rename") {
    try {
      const client = await renameClient(user, value.name);
      return redirectWithToast(PATH, { type: "success", message: `Your company is now called ${client.name}.` });
    } catch (error) {
      return refuse(error, (message) => ({ intent: "rename", result: formError(message) }));
    }
  }
  if (value?.intent === "invite") {
    try {
      const { member } = await inviteMember(user, value);
      const role = CLIENT_ROLE_LABELS[member.role].toLowerCase();
      return redirectWithToast(PATH, { type: "success", message: `Invitation sent to ${member.email} as ${role}.` });
    } catch (error) {
      return refuse(error, (message) => ({ intent: "invite", result: formError(message) }));
    }
  }

  const step = { intent: String(posted), userId: String(submission.payload.userId ?? "") };
  const own = await getOwnClient(user);
  const member = own.members.find((row) => row.id === (step.intent === "leave" ? user.id : step.userId));
  if (!member) return data({ intent: "unknown", result: formError("Member not found.") } satisfies CompanyAction, { status: 404 });

  if (step.intent === "role") {
    if (!can(user, "client:manage")) throw ownerOnly();
    if (value?.intent !== "role") return data({ intent: "role", userId: step.userId, result: submission.reply() } satisfies CompanyAction, { status: 400 });
    try {
      const changed = await changeMemberRole(user, value.userId, value.role);
      return redirectWithToast(PATH, { type: "success", message: `${changed.name} is now ${CLIENT_ROLE_LABELS[changed.role].toLowerCase()}.` });
    } catch (error) {
      return refuse(error, (message) => ({ intent: "role", userId: value.userId, result: formError(message) }));
    }
  }
  if (value?.intent !== "remove" && value?.intent !== "leave")
    return data({ intent: "unknown", result: submission.reply() } satisfies CompanyAction, { status: 400 });

  const leaving = value.intent === "leave" || member.id === user.id;
  if (!leaving && !can(user, "client:manage")) throw ownerOnly();
  // Removing and leaving end sign-ins: the first post answers with the confirmation step.
  if (!value.confirm) {
    return { intent: "confirm", leaving, member: { id: member.id, name: member.name, email: member.email } } satisfies CompanyAction;
  }
  try {
    await removeMember(user, member.id);
  } catch (error) {
    return refuse(error, (message) => ({ intent: leaving ? "leave" : "remove", userId: member.id, result: formError(message) }));
  }
  if (!leaving) return redirectWithToast(PATH, { type: "success", message: `${member.name} was removed and signed out everywhere.` });
  // Every session of the account ended with the membership; the browser forgets its cookie too.
  return redirectWithToast(
    "/login",
    { type: "info", message: `You left ${own.client.name} and were signed out everywhere.` },
    { headers: { "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) } },
  );
}

type CompanyData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function CompanyPage() {
  return <CompanyView {...useLoaderData<typeof loader>()} />;
}

function CompanyView({ client, role, members, meId, canManage, managing, owners }: CompanyData) {
  const actionData = useActionData<typeof action>() as CompanyAction | undefined;
  // A new page (the redirect after a sent invitation) starts with empty forms.
  const { key } = useLocation();
  return (
    <section aria-labelledby="company-heading" className="space-y-6">
      <div className="space-y-1">
        <h2 id="company-heading" className="text-xl font-bold break-words text-slate-950">
          {client.name}
        </h2>
        <p className="text-sm text-slate-600">
          Your company&apos;s team on BrandLift · {members.length} {members.length === 1 ? "member" : "members"}
        </p>
        <OwnRole role={role} />
      </div>
      <MemberList members={members} meId={meId} canManage={canManage} managing={managing} owners={owners} actionData={actionData} />
      {canManage ? <InviteMemberForm key={key} actionData={actionData} /> : null}
      {canManage ? <ClientNameForm name={client.name} actionData={actionData} /> : null}
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Team — BrandLift dashboard" }];

export function ErrorBoundary() {
  return <SectionBoundary<CompanyData> message="Failed to load your team" render={(data) => <CompanyView {...data} />} />;
}
