import { jsonError } from "~/utils/http.server";

/** Any /api path no route claims: the JSON 404, never an HTML page. */
const notFound = () => jsonError(404, "No such API endpoint.", "NOT_FOUND");

export const loader = notFound;
export const action = notFound;
