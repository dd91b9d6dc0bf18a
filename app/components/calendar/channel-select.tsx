import { CHANNEL_LABELS, CHANNELS, type Channel } from "~/domain/calendar";

/** The calendar's select look (the new-post form and a post's edit form): `.calendar-select`, full width. */
export const calendarSelectClass = "calendar-select w-full";

/** "Channel": where a post goes out, one of the channels posts go out on. */
export function ChannelSelect({ defaultValue }: { defaultValue: Channel }) {
  return (
    <label className="text-sm font-medium text-slate-700">
      Channel
      <select name="channel" required defaultValue={defaultValue} className={calendarSelectClass}>
        {CHANNELS.map((channel) => (
          <option key={channel} value={channel}>
            {CHANNEL_LABELS[channel]}
          </option>
        ))}
      </select>
    </label>
  );
}
