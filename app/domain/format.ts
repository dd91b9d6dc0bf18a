const FILE_SIZE_UNITS = ["Bytes", "KB", "MB", "GB"] as const;

/**
 * The one way the product writes a file's size (reports, chat files, uploads): base 1024, at most
 * two decimals, 1536 -> "1.5 KB" (docs/decisions/171-one-way-to-say-it.md).
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return "0 Bytes";
  const exponent = Math.min(Math.max(Math.floor(Math.log(bytes) / Math.log(1024)), 0), FILE_SIZE_UNITS.length - 1);
  const value = parseFloat((bytes / 1024 ** exponent).toFixed(2));
  return `${value} ${FILE_SIZE_UNITS[exponent]}`;
}

const messageTimeFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });

/** When a chat message was sent, as the conversation and the inbox's rows show it: "Nov 29, 10:41 AM". */
export function formatMessageTime(at: string | number) {
  return messageTimeFormat.format(new Date(at));
}

/** "1 conversation", "3 conversations" (English plurals; an irregular plural is given). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** "1 conversation matches", "3 conversations match": the verb agrees with the count. */
export function countMatching(count: number, singular: string, plural = `${singular}s`): string {
  return `${countOf(count, singular, plural)} ${count === 1 ? "matches" : "match"}`;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Dollars (not cents) with the currency sign before the amount: 28.99 -> "$28.99". */
export function formatMoney(dollars: number, currency = "usd"): string {
  const code = currency.toUpperCase();
  // US dollars without Intl: a browser's first Intl.NumberFormat loads ICU data, 20-40 ms on a
  // phone, and the landing page's prices were its only use, right in the middle of hydration.
  // Same output as Intl's en-US currency format (format.test.ts compares the two).
  if (code === "USD" && Number.isFinite(dollars) && Math.abs(dollars) < 1e13) {
    // Like Intl, round the shortest decimal form of the number half away from zero (0.015 -> 0.02).
    const shortest = String(Math.abs(dollars));
    const [whole, fraction = ""] = shortest.includes("e") ? ["0"] : shortest.split(".");
    const cents = Number(whole) * 100 + Number(`${fraction}00`.slice(0, 2)) + (fraction.charCodeAt(2) >= 53 ? 1 : 0);
    const sign = dollars < 0 || Object.is(dollars, -0) ? "-" : "";
    const grouped = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return `${sign}$${grouped}.${String(cents % 100).padStart(2, "0")}`;
  }
  let format = moneyFormats.get(code);
  if (!format) {
    format = new Intl.NumberFormat("en-US", { style: "currency", currency: code, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    moneyFormats.set(code, format);
  }
  return format.format(dollars);
}

/** Integer cents as screens show them: 2899 -> "$28.99". Screens take cents; dollars are the public API's. */
export function formatCents(cents: number, currency = "usd"): string {
  return formatMoney(Math.round(cents) / 100, currency);
}

/** Money is stored in integer cents and leaves the API in dollars with at most two decimals. */
export const centsToDollars = (cents: number) => Math.round(cents) / 100;
export const dollarsToCents = (dollars: number) => Math.round(dollars * 100);
