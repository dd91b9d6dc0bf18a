import { startWorkerS3 } from "../support/s3rver";

/*
 * Setup of the project `unit-fakes` (before tests/setup/per-file.ts): the S3 files share a worker, and
 * so one import of the app, whose storage points at one endpoint: one s3rver for the worker, started
 * by its first file and listening until the worker ends. Each file empties it (fakeS3ForFile).
 */
await startWorkerS3();
