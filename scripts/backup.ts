import path from "node:path";

import { backup, BackupError, restore, type DatabaseLocation } from "~/utils/backup.server";
import { env } from "~/utils/env.server";
import { storage } from "~/utils/storage.server";

/**
 * npm run backup -- <dir>    a consistent copy of the database and every stored file, with a manifest
 * npm run restore -- <dir>   fills an empty database and an empty storage from such a copy
 * Both read the same settings as the server (DATABASE_URL or the embedded database in DATA_DIR;
 * STORAGE_DIR or S3_*). docs/operating.md
 */

const [command, dir, ...rest] = process.argv.slice(2);
if ((command !== "backup" && command !== "restore") || !dir || rest.length > 0) {
  console.error("Usage: npm run backup -- <dir>   |   npm run restore -- <dir>");
  process.exit(2);
}

const database: DatabaseLocation = env.databaseUrl ? { kind: "postgres", url: env.databaseUrl } : { kind: "pglite", dataDir: path.join(env.dataDir, "pglite") };
const started = Date.now();
try {
  const manifest = command === "backup" ? await backup(dir, { database, storage }) : await restore(dir, { database, storage });
  const files = manifest.storage.files;
  const megabytes = (manifest.database.bytes + files.reduce((sum, file) => sum + file.bytes, 0)) / 1e6;
  console.log(
    `${command === "backup" ? "Backed up" : "Restored"} the ${manifest.database.kind === "postgres" ? "PostgreSQL" : "embedded"} database and ${files.length} stored files (${megabytes.toFixed(1)} MB) ${command === "backup" ? "into" : "from"} ${path.resolve(dir)} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
  );
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  console.error(`Error: ${error.message}`);
  process.exit(1);
}
