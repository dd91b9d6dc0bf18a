import { pointAppAtFakeStripe, sharedFakeStripeServer } from "../fakes/stripe";

/*
 * Setup of the project `unit-fakes` (before tests/setup/per-file.ts): the files that talk to Stripe
 * share a worker, and so one import of the app, whose Stripe client points at one address: the
 * worker's one fake server. Its settings are in place before the first file imports the app; each
 * file puts the same ones again (pointAppAtFakeStripe), which is what it runs with in `test:services`, one
 * process a file.
 */
pointAppAtFakeStripe((await sharedFakeStripeServer()).url);
