/** An amount of money in minor units (cents). */
export type Cents = number;

/** ISO code of the ledger currency. */
export const CURRENCY = 'EUR';

/**
 * Formats cents as a decimal string such as `-12.50`.
 */
export function format(cents: Cents): string {
  return (cents / 100).toFixed(2);
}

/**
 * Parses a decimal string such as `12.50` into cents.
 */
export function parseAmount(text: string): Cents {
  return Math.round(Number.parseFloat(text) * 100);
}
