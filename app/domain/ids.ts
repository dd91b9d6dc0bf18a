/** Entity ids are UUIDs. Ids come from URLs and sockets: a malformed one is simply not found. */
export const UUID_SOURCE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const UUID = new RegExp(`^${UUID_SOURCE}$`, "i");

export const isUuid = (value: unknown): value is string => typeof value === "string" && UUID.test(value);

/**
 * The API's edge (decision 309): a screen's value with its `id` written as `_id` and every other
 * field as it is, so a `to…Json` names only the fields whose shape differs.
 */
export const withWireId = <T extends { id: unknown }>({ id, ...rest }: T): Omit<T, "id"> & { _id: T["id"] } => ({ _id: id, ...rest });
