import { parseWithZod } from "@conform-to/zod/v4";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";

import { loginSchema } from "~/domain/schemas/auth";
import { verifyLogin, type User } from "~/models/users.server";

/**
 * Sign-in with remix-auth's FormStrategy. remix-auth 4 keeps no session: `authenticate()` hands
 * back the user and the caller creates the database session (cookie or bearer token).
 */

export const INVALID_CREDENTIALS_MESSAGE = "Invalid email or password.";
export const LOGIN_SUCCESS_MESSAGE = "Logged in successfully!";

/** Thrown by the strategy for bad credentials: one message whether or not the e-mail exists. */
export class InvalidCredentialsError extends Error {
  constructor() {
    super(INVALID_CREDENTIALS_MESSAGE);
    this.name = "InvalidCredentialsError";
  }
}

export const authenticator = new Authenticator<User>();

authenticator.use(
  new FormStrategy(async ({ form }) => {
    const submission = parseWithZod(form, { schema: loginSchema });
    if (submission.status !== "success") throw new InvalidCredentialsError();
    const user = await verifyLogin(submission.value.email, submission.value.password);
    if (!user) throw new InvalidCredentialsError();
    return user;
  }),
  "form",
);

/** Signs in from a form post (the /login action). Reads a clone, so the caller may read the body too. */
export function authenticateForm(request: Request) {
  return authenticator.authenticate("form", request);
}

/** Signs in from JSON credentials (POST /api/auth/login) through the same strategy. */
export function authenticateCredentials(email: string, password: string) {
  const request = new Request("http://internal/login", {
    method: "POST",
    body: new URLSearchParams({ email, password }),
  });
  return authenticator.authenticate("form", request);
}
