import { Form } from "@remix-run/react";

import { calendarSelectClass, ChannelSelect } from "~/components/calendar/channel-select";
import { Button } from "~/components/ui/button";
import { Plus } from "~/components/ui/icons";
import { Field, Input, Textarea } from "~/components/ui/input";
import { CAPTION_MAX, type CalendarCustomer } from "~/domain/calendar";

/**
 * Staff draft a post: customer, channel, date and time (the viewer's zone) and caption. Every
 * customer is offered (decision 282), those with a live plan first and those without in a group of
 * their own, since their posts count against no monthly quota.
 */
export function NewPostForm({
  customers,
  defaultCustomerId,
  defaultDate,
  error,
}: {
  customers: CalendarCustomer[];
  defaultCustomerId: string;
  defaultDate: string;
  error?: string;
}) {
  const groups = [
    ["With a live plan", customers.filter((customer) => customer.livePlan)],
    ["Without a live plan", customers.filter((customer) => !customer.livePlan)],
  ] as const;
  return (
    <Form method="post" aria-labelledby="new-post-heading" className="space-y-4 rounded-card border border-slate-200 bg-white p-5 shadow-card">
      <h3 id="new-post-heading" className="text-lg font-semibold text-slate-950">
        Draft a post
      </h3>
      <input type="hidden" name="intent" value="create" />
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <label className="text-sm font-medium text-slate-700">
          Customer
          <select
            name="customerId"
            required
            defaultValue={defaultCustomerId}
            aria-describedby="new-post-customers"
            className={calendarSelectClass}
            disabled={customers.length === 0}
          >
            <option value="">Choose a customer</option>
            {groups.map(([label, members]) =>
              members.length > 0 ? (
                <optgroup key={label} label={label}>
                  {members.map((customer) => (
                    <option key={customer.id} value={customer.id}>
                      {customer.name}
                    </option>
                  ))}
                </optgroup>
              ) : null,
            )}
          </select>
          <span id="new-post-customers" className="mt-1 block text-xs font-normal text-slate-500">
            {customers.length === 0
              ? "No customers yet: a post is drafted for a customer, so one has to sign up or buy first."
              : "Every customer is listed. Posts for one without a live plan count against no monthly quota."}
          </span>
        </label>
        <ChannelSelect defaultValue="instagram" />
        <Field label="Date">{(control) => <Input {...control} name="date" type="date" required defaultValue={defaultDate} />}</Field>
        <Field label="Time">{(control) => <Input {...control} name="time" type="time" required defaultValue="10:00" />}</Field>
      </div>
      <Field label="Caption">{(control) => <Textarea {...control} name="caption" rows={4} maxLength={CAPTION_MAX} />}</Field>
      <Button type="submit">
        <Plus className="size-4" aria-hidden="true" />
        Save draft
      </Button>
    </Form>
  );
}
