/**
 * Formats a date as `YYYY-MM-DD`.
 */
export function format(date: Date): string {
  return date.toISOString().slice(0, 10);
}
