import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/** The layering rule sees every spelling of an import: aliases and relative paths alike. */
const root = path.resolve(import.meta.dirname, "../..");
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function layerErrors(file: string, source: string) {
  const [result] = await eslint.lintText(`${source}\nexport const probe = 1;\n`, { filePath: path.join(root, file) });
  return result.messages.filter((m) => m.ruleId === "layers/layers").map((m) => m.message);
}

describe("path-based import zones", () => {
  it.each([
    ["app/models/probe.ts", `import { requireUser } from "../web/guards.server";`, "app/web/guards.server"],
    ["app/models/probe.ts", `import { requireUser } from "~/web/guards.server";`, "app/web/guards.server"],
    ["app/models/probe.ts", `import { db } from "#db/client";`, "db/client"],
    ["app/models/probe.ts", `import { db } from "../../db/client";`, "db/client"],
    ["app/web/probe.ts", `import { Button } from "../components/ui/button";`, "app/components/ui/button"],
    ["app/domain/probe.ts", `import { env } from "../utils/env.server";`, "app/utils/env.server"],
    ["app/domain/probe.ts", `import { x } from "./secret.server";`, "app/domain/secret.server"],
    ["app/components/probe.tsx", `import { getUser } from "../web/auth.server";`, "app/web/auth.server"],
    ["app/utils/probe.ts", `import { schema } from "../../db/schema";`, "db/schema"],
    ["app/routes/probe.tsx", `import { fake } from "../../tests/fakes/stripe";`, "tests/fakes/stripe"],
    ["db/probe.ts", `import { x } from "../app/models/users.server";`, "app/models/users.server"],
    ["bench/probe.ts", `import Page from "../app/routes/_index";`, "app/routes/_index"],
    ["scripts/probe.ts", `export * from "../app/components/ui/button";`, "app/components/ui/button"],
    ["app/web/probe.ts", `import { createAssetServer } from "../../server/asset-server";`, "server/asset-server"],
    ["server/probe.ts", `import Page from "~/routes/_index";`, "app/routes/_index"],
    ["server/probe.ts", `import { db } from "#db/client";`, "db/client"],
  ])("%s may not import %s", async (file, source, target) => {
    const errors = await layerErrors(file, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(target);
  });

  it.each([
    ["app/models/probe.ts", `import { db } from "../utils/db.server";`],
    ["app/utils/db.server.ts", `import * as schema from "#db/schema";`],
    ["app/web/probe.ts", `import { findUser } from "../models/users.server";`],
    ["app/routes/probe.tsx", `import { Button } from "~/components/ui/button";`],
    ["app/domain/probe.ts", `import { formatMoney } from "./format";`],
    ["db/probe.ts", `import { ORDER_STATUSES } from "../app/domain/status";`],
    ["bench/probe.ts", `import { startServer } from "../tests/support/server-process";`],
    ["server/probe.ts", `import { logger } from "~/utils/logger.server";`],
  ])("%s may import %s", async (file, source) => {
    expect(await layerErrors(file, source)).toEqual([]);
  });
});
