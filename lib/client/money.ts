// Money as people read it. The API counts in cents (`…Cents`) and thousandths of a cent
// (`…Millicents`; 1 US dollar = 100 cents = 100,000 millicents). An amount shows in whole cents,
// $1,234.57, rounded half away from zero like the API's whole-cent fields (docs/billing.md,
// Rounding); a non-zero amount that would round to nothing shows as <$0.01, never a misleading
// $0.00. The exact figure goes in a tooltip (`millicentsTitle`; the `Money` component does both).
// A price per unit is shown exact ($0.0005 a session): `formatCents` keeps a fraction of a cent.

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const exactDollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 5 });
const MILLICENTS_PER_CENT = 1_000;

const signed = (text: string, negative: boolean, plus: boolean) => (negative ? `−${text}` : plus ? `+${text}` : text);

/** Cents as dollars: 2000 → "$20.00", -150 → "−$1.50", a rate of 0.05 → "$0.0005". `plus` prefixes "+" on amounts above zero. */
export function formatCents(cents: number, options: { plus?: boolean } = {}): string {
  const value = Math.abs(cents) / 100;
  return signed(Number.isInteger(cents) ? dollars.format(value) : exactDollars.format(value), cents < 0, Boolean(options.plus) && cents > 0);
}

/** Millicents as dollars in whole cents: 1_996_432 → "$19.96", 50 → "<$0.01", -1_234 → "−$0.01". */
export function formatMillicents(millicents: number, options: { plus?: boolean } = {}): string {
  const magnitude = Math.abs(millicents);
  const cents = Math.floor((magnitude + MILLICENTS_PER_CENT / 2) / MILLICENTS_PER_CENT);
  const text = magnitude > 0 && cents === 0 ? `<${dollars.format(0.01)}` : dollars.format(cents / 100);
  return signed(text, millicents < 0, Boolean(options.plus) && millicents > 0);
}

/** Millicents as dollars, exact to the millicent (a chart's axis): 50 → "$0.0005", 2_000_000 → "$20.00". */
export function formatMillicentsExact(millicents: number): string {
  return signed(exactDollars.format(Math.abs(millicents) / 100_000), millicents < 0, false);
}

/** The exact amount, for a tooltip: 1_996_432 → "$19.96432 (1,996,432 millicents)". */
export function millicentsTitle(millicents: number): string {
  const count = signed(Math.abs(millicents).toLocaleString('en-US'), millicents < 0, false);
  return `${formatMillicentsExact(millicents)} (${count} ${Math.abs(millicents) === 1 ? 'millicent' : 'millicents'})`;
}

/** A typed dollar amount ("20", "$1,250.5") as whole cents, or null when it is not one. */
export function parseDollars(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (!/^\d+(\.\d{0,2})?$/.test(cleaned)) return null;
  const [whole, fraction = ''] = cleaned.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}
