import { everyone } from "./helpers";
import type { AuthorizationRow } from "./types";

/** The API description (docs/api.md) is public: it holds the shapes, never data. */
export const rows: AuthorizationRow[] = [
  { route: "api+/openapi[.]json.ts", method: "GET", path: "/api/openapi.json", expect: everyone(200) },
  { route: "api+/openapi[.]json.ts", method: "POST", path: "/api/openapi.json", expect: everyone(405) },
];
