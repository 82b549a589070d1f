// Small pieces the profile list and the profile's page share.
import { Badge } from '../ui/badge';

export const profileHref = (slug: string) => `/profiles/${encodeURIComponent(slug)}`;

/** A session holds the profile's saving lock: what it saves at its end becomes the next version. */
export function SavingBadge() {
  return (
    <Badge tone="warning" dot>
      <span title="A session is connected with this profile and saves it when it ends">Saving</span>
    </Badge>
  );
}

const sourceLabels: Record<string, string> = { session: 'Session', create: 'Created', import: 'Imported', restore: 'Restored' };

/** What made a version (docs/profiles.md, Versions), for people. */
export const sourceLabel = (source: string) => sourceLabels[source] ?? source;
