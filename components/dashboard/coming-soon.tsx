import { PageHeader } from '../ui/page-header';
import { Badge } from '../ui/badge';
import { ButtonLink } from '../ui/button';
import { navSections } from './nav';

/** The page of an area that is not built yet: what it will do, and a way back. */
export function ComingSoon({ area }: { area: string }) {
  const item = navSections.flatMap((s) => s.items).find((i) => i.key === area);
  if (!item) throw new Error(`unknown area ${area}`);
  const Icon = item.icon;
  return (
    <>
      <PageHeader title={item.label} description={item.description} />
      <div className="relative overflow-hidden rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-16 text-center">
        <div
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_50%_0%,var(--color-accent-50),transparent_60%)]"
          aria-hidden="true"
        />
        <div className="relative mx-auto flex max-w-md flex-col items-center">
          <div className="mb-4 flex size-12 items-center justify-center rounded-xl border border-zinc-200 bg-white text-accent-600 shadow-xs">
            <Icon className="size-6" />
          </div>
          <Badge tone="accent">Coming soon</Badge>
          <h2 className="mt-3 text-lg font-semibold text-zinc-900">{item.label} is on its way</h2>
          <p className="mt-1.5 text-sm text-zinc-500">
            This part of the dashboard isn&apos;t built yet. The API behind it follows the same workspace and roles you see here.
          </p>
          <ButtonLink href="/overview" className="mt-6">
            Back to overview
          </ButtonLink>
        </div>
      </div>
    </>
  );
}
