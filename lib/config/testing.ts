// For tests that change their own process's environment: the settings are read once
// (lib/config/settings.ts), so each change reads them again. Returns what undoes the changes.
import { reloadSettings } from './settings';

export function setEnv(changes: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(changes).map((name) => [name, process.env[name]]));
  const apply = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    reloadSettings();
  };
  apply(changes);
  return () => apply(saved);
}
