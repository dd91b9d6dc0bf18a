import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";

import { FormAlert } from "~/components/auth/auth-layout";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/input";
import { EMAIL_CHOICES, NOTIFICATION_KIND_LABELS, NOTIFICATION_KINDS, notificationSettingsFormSchema, type EmailChoice } from "~/domain/notifications";
import { TIME_ZONES } from "~/domain/time-zones";
import { notificationSettingsOf, updateNotificationSettings } from "~/models/notifications.server";
import { requireUser } from "~/web/auth.server";
import { readForm } from "~/web/body-limit.server";
import { redirectWithToast } from "~/web/toast.server";

/*
 * /dashboard/notifications/settings (decision 290): for each kind of notification, e-mail at once,
 * in one digest at 08:00 in your time zone, or not at all; and that time zone. Security e-mails are
 * not listed: they always go. A plain form, the same without JavaScript.
 */

const CHOICE_LABELS: Record<EmailChoice, string> = { instant: "At once", daily: "Daily digest (08:00)", off: "Off" };
const selectClass = "mt-1 block min-h-11 w-full rounded-xl border border-slate-300 bg-white px-3 text-sm text-slate-900";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return notificationSettingsOf(user.id);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: notificationSettingsFormSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { timeZone, ...email } = submission.value;
  await updateNotificationSettings(user.id, { email, timeZone });
  return redirectWithToast("/dashboard/notifications/settings", { type: "success", message: "E-mail choices saved." });
}

/** Every zone the runtime knows, and the person's own if it is not among them. */
const timeZones = (current: string): readonly string[] => ((TIME_ZONES as readonly string[]).includes(current) ? TIME_ZONES : [current, ...TIME_ZONES]);

export default function NotificationSettingsPage() {
  const settings = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "notification-settings",
    lastResult: navigation.state === "idle" ? reply?.result : undefined,
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: notificationSettingsFormSchema }),
  });
  return (
    <section aria-labelledby="notification-settings-heading" className="space-y-6">
      <div>
        <h2 id="notification-settings-heading" className="text-xl font-bold text-slate-950">
          E-mail choices
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          Everything also shows under{" "}
          <Link to="/dashboard/notifications" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
            Notifications
          </Link>
          . Security e-mails (a sign-in from a new device, password, e-mail, two-factor and passkey changes) always come.
        </p>
      </div>
      <Form method="post" {...getFormProps(form)} className="grid gap-4 rounded-card border border-slate-200 bg-white p-6 shadow-card sm:max-w-xl">
        <FormAlert id={form.errorId} errors={form.errors} />
        {NOTIFICATION_KINDS.map((kind) => (
          <Field key={kind} id={fields[kind].id} label={NOTIFICATION_KIND_LABELS[kind]} error={fields[kind].errors}>
            <select id={fields[kind].id} name={kind} defaultValue={settings.email[kind]} className={selectClass}>
              {EMAIL_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {CHOICE_LABELS[choice]}
                </option>
              ))}
            </select>
          </Field>
        ))}
        <Field id={fields.timeZone.id} label="Your time zone" hint="The daily digest comes at 08:00 here." error={fields.timeZone.errors}>
          <select id={fields.timeZone.id} name="timeZone" defaultValue={settings.timeZone} className={selectClass}>
            {timeZones(settings.timeZone).map((zone) => (
              <option key={zone}>{zone}</option>
            ))}
          </select>
        </Field>
        <Button type="submit" className="justify-self-start" loading={navigation.state === "submitting"}>
          Save
        </Button>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "E-mail choices — BrandLift" }];
