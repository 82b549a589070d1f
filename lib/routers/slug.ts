/** "My Router!" → "my-router"; padded or cut to the spec's 2–40 characters. */
export function slugify(name: string, max = 40): string {
  const base = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return base.length >= 2 ? base : `${base || 'r'}-1`.slice(0, max);
}
