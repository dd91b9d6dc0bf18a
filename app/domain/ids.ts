/** Entity ids are UUIDs. Ids come from URLs and sockets: a malformed one is simply not found. */
export const UUID_SOURCE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const UUID = new RegExp(`^${UUID_SOURCE}$`, "i");

export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);
