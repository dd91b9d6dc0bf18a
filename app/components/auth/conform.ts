import { getInputProps, type FieldMetadata } from "@conform-to/react";

/**
 * conform's input props without `key`: React warns when a props object carrying `key` is spread
 * into JSX, so the key is handed back separately.
 */
export function inputProps<Schema>(
  field: FieldMetadata<Schema>,
  options: Parameters<typeof getInputProps>[1],
): { key: string | undefined; props: Omit<ReturnType<typeof getInputProps>, "key"> } {
  const { key, ...props } = getInputProps(field, options);
  return { key, props };
}

/** For <PasswordInput>, which decides its own `type` (the show/hide toggle). */
export function passwordInputProps<Schema>(field: FieldMetadata<Schema>) {
  const { key, props } = inputProps(field, { type: "password" });
  const { type: _type, ...rest } = props;
  return { key, props: rest };
}
