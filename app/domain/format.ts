const FILE_SIZE_UNITS = ["Bytes", "KB", "MB", "GB"] as const;

/** Human-readable size at base 1024 with at most two decimals: 1536 -> "1.5 KB". */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 Bytes";
  const exponent = Math.min(
    Math.max(Math.floor(Math.log(bytes) / Math.log(1024)), 0),
    FILE_SIZE_UNITS.length - 1,
  );
  const value = parseFloat((bytes / 1024 ** exponent).toFixed(2));
  return `${value} ${FILE_SIZE_UNITS[exponent]}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Dollars (not cents) with the currency sign before the amount: 28.99 -> "$28.99". */
export function formatMoney(dollars: number, currency = "usd"): string {
  // One formatter per currency: building an Intl.NumberFormat costs about a millisecond on a phone,
  // and the landing page formats a few dozen prices while it hydrates.
  const code = currency.toUpperCase();
  let format = moneyFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency: code, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    moneyFormats.set(code, format);
  }
  return format.format(dollars);
}

/** Money is stored in integer cents and leaves the API in dollars with at most two decimals. */
export const centsToDollars = (cents: number) => Math.round(cents) / 100;
export const dollarsToCents = (dollars: number) => Math.round(dollars * 100);
