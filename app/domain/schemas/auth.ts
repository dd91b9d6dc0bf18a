import { line, z } from "~/domain/zod";

/**
 * One zod schema per auth form, used by conform in the browser, by the page actions and by the
 * JSON API, so every message below is worded once.
 */

export const AUTH_MESSAGES = {
  emailRequired: "Email is required",
  emailInvalid: "Invalid email address",
  passwordRequired: "Password is required",
  passwordTooShort: "Password must be at least 8 characters",
  passwordTooLong: "Password must be at most 128 characters",
  confirmRequired: "Confirm Password is required",
  passwordsMismatch: "Passwords must match",
  tokenRequired: "The reset link is missing its token. Please request a new one.",
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
const EMAIL_MAX_LENGTH = 254;

/** JSON clients may send "" where a form sends nothing: both mean "missing". */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

export const emailField = z.preprocess(
  (value) => (typeof value === "string" ? blankToUndefined(value.trim()) : value),
  z
    .email({ error: (issue) => (issue.input === undefined ? AUTH_MESSAGES.emailRequired : AUTH_MESSAGES.emailInvalid) })
    .max(EMAIL_MAX_LENGTH, { error: AUTH_MESSAGES.emailInvalid }),
);

/** Sign-in takes any stored password; only its presence (and a sane upper bound) is checked. */
const currentPasswordField = z.preprocess(
  blankToUndefined,
  z.string({ error: AUTH_MESSAGES.passwordRequired }).max(PASSWORD_MAX_LENGTH, { error: AUTH_MESSAGES.passwordTooLong }),
);

export const newPasswordField = z.preprocess(
  blankToUndefined,
  z
    .string({ error: AUTH_MESSAGES.passwordRequired })
    .min(PASSWORD_MIN_LENGTH, { error: AUTH_MESSAGES.passwordTooShort })
    .max(PASSWORD_MAX_LENGTH, { error: AUTH_MESSAGES.passwordTooLong }),
);

const tokenField = z.preprocess(blankToUndefined, z.string({ error: AUTH_MESSAGES.tokenRequired }).max(200));

export const loginSchema = z.object({
  email: emailField,
  password: currentPasswordField,
  redirectTo: z.string().optional(),
});

export const forgotPasswordSchema = z.object({ email: emailField });

export const resetPasswordSchema = z
  .object({
    token: tokenField,
    password: newPasswordField,
    confirmPassword: z.preprocess(blankToUndefined, z.string({ error: AUTH_MESSAGES.confirmRequired })),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ["confirmPassword"],
    message: AUTH_MESSAGES.passwordsMismatch,
  });

/** The JSON API's bodies (docs/api.md): the same fields without the browser-only ones. */
export const apiLoginSchema = loginSchema.omit({ redirectTo: true });
export const apiResetPasswordSchema = z.object({ password: newPasswordField, token: tokenField });

/** A second-factor code: six digits from an authenticator app, or a recovery code (xxxxx-xxxxx). */
export const TWO_FACTOR_CODE_MESSAGES = {
  codeRequired: "Enter the 6-digit code from your authenticator app, or a recovery code.",
  challengeRequired: "This sign-in has expired or had too many wrong codes. Please sign in again.",
} as const;

export const codeField = z.preprocess(
  (value) => (typeof value === "string" ? blankToUndefined(value.trim()) : value),
  z.string({ error: TWO_FACTOR_CODE_MESSAGES.codeRequired }).max(40, { error: TWO_FACTOR_CODE_MESSAGES.codeRequired }),
);
const challengeField = z.preprocess(blankToUndefined, z.string({ error: TWO_FACTOR_CODE_MESSAGES.challengeRequired }).max(200));

export const codeSchema = z.object({ code: codeField });
export const twoFactorSchema = z.object({ challenge: challengeField, code: codeField, redirectTo: z.string().optional() });

/** A WebAuthn answer as @simplewebauthn/browser hands it over (registration or authentication). */
const PASSKEY_INVALID = "The passkey answer is not valid. Please try again.";
const base64url = z
  .string({ error: PASSKEY_INVALID })
  .max(16_384, { error: PASSKEY_INVALID })
  .regex(/^[\w-]*={0,2}$/, { error: PASSKEY_INVALID });
export const passkeyCredentialSchema = z
  .object(
    {
      id: base64url.min(1, { error: PASSKEY_INVALID }),
      rawId: base64url,
      type: z.literal("public-key", { error: PASSKEY_INVALID }),
      response: z.object({ clientDataJSON: base64url }, { error: PASSKEY_INVALID }).loose(),
      clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
      authenticatorAttachment: z.string().max(40).optional(),
    },
    { error: PASSKEY_INVALID },
  )
  .loose();
/** A passkey's answer as the schema took it in; the WebAuthn library checks the rest of its shape. */
export type PasskeyCredential = z.infer<typeof passkeyCredentialSchema>;
/** The same answer posted by a form, as a JSON string in one field. */
export const passkeyCredentialField = z.preprocess((value) => {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}, passkeyCredentialSchema);
/** The JSON API's second step: a code, or a passkey's answer to the step's options (one of them). */
export const apiTwoFactorSchema = z.object({ challenge: challengeField, code: codeField.optional(), credential: passkeyCredentialSchema.optional() });
/** The sign-in form's second step answered with a passkey (posted by the page's script). */
export const passkeySecondStepSchema = z.object({ challenge: challengeField, credential: passkeyCredentialField, redirectTo: z.string().optional() });

/**
 * What proves it is the owner adding a passkey, beyond the session (decision 258): the password, or
 * a code when the authenticator app is on. An account with neither signs in again first.
 */
/** What an account confirms a new passkey with. */
export type PasskeyProof = "code" | "password" | "recent-sign-in";
export const PASSKEY_PROOF_MESSAGES = {
  passwordRequired: "Enter your password to add a passkey.",
  codeRequired: "Enter a code from your authenticator app (or a recovery code) to add a passkey.",
  signInAgain: "To add a passkey, sign in again first (e-mail yourself a sign-in link from the sign-in page): your account has no password to confirm it with.",
} as const;
export const passkeyProofSchema = z.object({
  password: z.preprocess(blankToUndefined, z.string().max(PASSWORD_MAX_LENGTH, { error: AUTH_MESSAGES.passwordTooLong }).optional()),
  code: codeField.optional(),
});

export const passkeyNameField = z.preprocess(
  (value) => (typeof value === "string" ? blankToUndefined(value.trim()) : value),
  line(z.string().max(60, { error: "A passkey name has at most 60 characters." }), "Passkey name").optional(),
);

/** Renaming a passkey (the security page and PATCH /api/account/passkeys/:id). */
export const PASSKEY_NAME_REQUIRED = "Enter a name for the passkey.";
export const passkeyRenameSchema = z.object({
  name: z.preprocess(
    (value) => (typeof value === "string" ? blankToUndefined(value.trim()) : value),
    line(z.string({ error: PASSKEY_NAME_REQUIRED }).max(60, { error: "A passkey name has at most 60 characters." }), "Passkey name"),
  ),
});
