import { z } from "zod";

import { statusData, userJson } from "~/domain/schemas/api";
import { clientRefJson } from "~/domain/schemas/clients";
import { line } from "~/domain/zod";
import { clientRefs } from "~/models/clients.server";
import { listCustomers, toUserJson, USERS_MAX_PAGE_SIZE, USERS_PAGE_SIZE } from "~/models/customers.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

const query = z.object({
  search: line(z.string().trim().max(200, "The search is too long."), "The search").optional(),
  page: z.coerce
    .number({ error: "Page must be a whole number." })
    .int("Page must be a whole number.")
    .min(1, "Page must be at least 1.")
    .max(1_000_000)
    .default(1),
  limit: z.coerce
    .number({ error: "Limit must be a whole number." })
    .int("Limit must be a whole number.")
    .min(1, "Limit must be at least 1.")
    .max(USERS_MAX_PAGE_SIZE, `Limit must be at most ${USERS_MAX_PAGE_SIZE}.`)
    .default(USERS_PAGE_SIZE),
});

/** GET /api/users[?search=&page=&limit=] (staff): customer accounts, newest first, with the total and each one's client. */
const response = statusData(z.object({ users: userJson.extend({ client: clientRefJson.nullable() }).array(), total: z.number().int() }));

export const loader = apiRoute(
  { method: "GET", auth: "team", query, response, summary: "Customer accounts, newest first, with the total." },
  async ({ query }) => {
    const { users, total } = await listCustomers(query);
    const clients = await clientRefs(users.map((user) => user.clientId));
    const clientOf = (clientId: string) => {
      const client = clients.get(clientId);
      return client ? { _id: client.id, name: client.name } : null;
    };
    return { status: "success", data: { users: users.map((user) => ({ ...toUserJson(user), client: clientOf(user.clientId) })), total } };
  },
);

export const action = methodNotAllowed;
