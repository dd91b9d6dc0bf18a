import { serviceJson, successData } from "~/domain/schemas/api";
import { catalogueServiceJson, serviceCreateBody } from "~/domain/schemas/catalogue";
import { createService, getStorefront, toCatalogueServiceJson, type Storefront } from "~/models/catalogue.server";
import { toServiceJson } from "~/models/services.server";
import { apiRoute } from "~/web/api.server";
import { lastingPer } from "~/web/json-answer.server";

/** GET /api/services: the active a-la-carte catalogue in display order. Public. */
export const loader = apiRoute(
  { method: "GET", auth: "none", response: successData(serviceJson.array()), summary: "The active a-la-carte services in display order." },
  async () => servicesAnswer(await getStorefront()),
);

/** One answer per catalogue snapshot, frozen: its JSON text is made once (json-answer.server.ts). */
const servicesAnswer = lastingPer((storefront: Storefront) => ({ success: true as const, data: storefront.services.map(toServiceJson) }));

/** POST /api/services: staff add a service (409 when the name is taken). */
export const action = apiRoute(
  {
    method: "POST",
    auth: "team",
    body: serviceCreateBody,
    status: 201,
    errors: [409],
    response: successData(catalogueServiceJson),
    summary: "Add a service to the catalogue (staff). Names are unique; the price is more than 0 and at most 100000 dollars.",
  },
  async ({ user, body }) => {
    const service = await createService(user, {
      name: body.name,
      description: body.description ?? null,
      priceCents: body.price,
      active: body.active,
      sortOrder: body.displayOrder,
    });
    return { success: true, data: toCatalogueServiceJson(service) };
  },
);
