/**
 * Numbers as en-US writes them (1,234,567.891), for every count planspec prints (status,
 * lint messages, reports). Integers are grouped by hand: building ICU's formatter costs
 * ≈ 10–15 ms, more than the rest of a `status` that prints counts.
 */
let formatter: Intl.NumberFormat | undefined;

export function formatNumber(n: number): string {
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return String(n).replace(/\B(?=(\d{3})+$)/g, ",");
  return (formatter ??= new Intl.NumberFormat("en-US")).format(n);
}
