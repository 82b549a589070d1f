// Money as people read it. The API counts in cents (`…Cents`) and thousandths of a cent
// (`…Millicents`; 1 US dollar = 100 cents = 100,000 millicents). Whole cents show as $1.23; an
// amount below a cent shows its exact figure ($0.0005), never a misleading $0.00.

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const exactDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 5 });

const signed = (text: string, negative: boolean, plus: boolean) => (negative ? `−${text}` : plus ? `+${text}` : text);

/** Cents as dollars: 2000 → "$20.00", -150 → "−$1.50". `plus` prefixes "+" on amounts above zero. */
export function formatCents(cents: number, options: { plus?: boolean } = {}): string {
  const value = Math.abs(cents) / 100;
  return signed(Number.isInteger(cents) ? dollars.format(value) : exactDollars.format(value), cents < 0, Boolean(options.plus) && cents > 0);
}

/** Millicents as dollars, exact to the millicent: 2_000_000 → "$20.00", 50 → "$0.0005", -1_234 → "−$0.01234". */
export function formatMillicents(millicents: number, options: { plus?: boolean } = {}): string {
  const value = Math.abs(millicents) / 100_000;
  return signed(exactDollars.format(value), millicents < 0, Boolean(options.plus) && millicents > 0);
}

/** A typed dollar amount ("20", "$1,250.5") as whole cents, or null when it is not one. */
export function parseDollars(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return null;
  const [whole, fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
