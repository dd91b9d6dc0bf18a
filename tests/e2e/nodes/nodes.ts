import path from "node:path";

/** Where the two-node configuration runs (playwright.nodes.config.ts, start-nodes.ts): ports, data, database. */
export const NODES = {
  customerPort: Number(process.env.E2E_NODE_A_PORT ?? 3941),
  staffPort: Number(process.env.E2E_NODE_B_PORT ?? 3942),
  dataDir: path.resolve(process.env.E2E_NODES_DATA_DIR ?? "data-e2e-nodes"),
  database: "brandlift_e2e_nodes",
} as const;
