import { successData } from "~/domain/schemas/api";
import { catalogueServiceJson, servicePatchBody } from "~/domain/schemas/catalogue";
import { z } from "~/domain/zod";
import { toCatalogueServiceJson, updateService } from "~/models/catalogue.server";
import { methodNotAllowed } from "~/utils/http.server";
import { apiRoute } from "~/web/api.server";

/**
 * PATCH /api/services/:id: staff change a service. The next checkout charges the new price; past
 * orders keep theirs. `active: false` takes it off the landing page and GET /api/services.
 */
export const action = apiRoute(
  {
    method: "PATCH",
    auth: "team",
    params: z.object({ id: z.string() }),
    body: servicePatchBody,
    errors: [409],
    response: successData(catalogueServiceJson),
    summary: "Change a service's name, description, price, display order or whether it is offered (staff).",
  },
  async ({ user, params, body }) => {
    const service = await updateService(user, params.id, {
      name: body.name,
      description: body.description,
      priceCents: body.price,
      active: body.active,
      sortOrder: body.displayOrder,
    });
    return { success: true, data: toCatalogueServiceJson(service) };
  },
);

export const loader = methodNotAllowed;
