/**
 * Messages between cluster workers and their primary (server/cluster.ts relays them). Kept apart from
 * the modules that send them so that the primary, which runs no app code, can name them.
 */

/** A worker changed data: every other worker's data generation moves (app/utils/data-generation.server.ts). */
export const DATA_CHANGED_MESSAGE = "brandlift:data-changed";
