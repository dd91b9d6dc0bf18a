import { Form } from "@remix-run/react";
import { Plus } from "lucide-react";

import { calendarSelectClass, ChannelSelect } from "~/components/calendar/channel-select";
import { Button } from "~/components/ui/button";
import { Field, Input, Textarea } from "~/components/ui/input";
import { CAPTION_MAX } from "~/domain/calendar";

/** Staff draft a post: customer, channel, date and time (the viewer's zone) and caption. */
export function NewPostForm({
  customers,
  defaultCustomerId,
  defaultDate,
  error,
}: {
  customers: { _id: string; name: string }[];
  defaultCustomerId: string;
  defaultDate: string;
  error?: string;
}) {
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
          <select name="customerId" required defaultValue={defaultCustomerId} className={calendarSelectClass}>
            <option value="">Choose a customer</option>
            {customers.map((customer) => (
              <option key={customer._id} value={customer._id}>
                {customer.name}
              </option>
            ))}
          </select>
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
