import { useFormAction, useNavigation } from "@remix-run/react";

type PendingOptions = {
  /** The form's action (its path; a query string on the navigation is ignored). Default: this route's own action. */
  formAction?: string;
  formMethod?: "POST" | "GET" | "PUT" | "PATCH" | "DELETE";
  /** "non-idle" (default) covers the submission and the reload after it. */
  state?: "submitting" | "loading" | "non-idle";
  /** Only a submission whose form data has this field and value (one of several forms posting to one action). */
  field?: { name: string; value: string };
};

/** Whether a form of this page is on its way: the one rule for busy buttons (as the Epic Stack's useIsPending). */
export function useIsPending({ formAction, formMethod = "POST", state = "non-idle", field }: PendingOptions = {}) {
  const ownAction = useFormAction();
  const navigation = useNavigation();
  const inState = state === "non-idle" ? navigation.state !== "idle" : navigation.state === state;
  if (!inState || navigation.formMethod !== formMethod) return false;
  const path = (action: string | undefined) => action?.split("?")[0];
  if (path(navigation.formAction) !== path(formAction ?? ownAction)) return false;
  return !field || navigation.formData?.get(field.name) === field.value;
}
