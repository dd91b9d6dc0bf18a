import { s3Settings } from "../support/s3rver";
import { freePort } from "../support/server-process";

/*
 * Setup of the project `unit-s3` (before tests/setup/per-file.ts): the S3 files share a worker, and
 * so one import of the app, whose storage points at one endpoint: a free port chosen once for the
 * worker, on which each file starts its own s3rver. The settings are in place before the first file
 * imports the app; each file puts the same ones again (s3Settings).
 */
process.env.S3_ENDPOINT ??= `http://127.0.0.1:${await freePort()}`;
s3Settings("brandlift-files");
