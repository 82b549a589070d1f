// The configuration of the hosted service's processes, in one place: every environment variable
// they read is a row of one of these tables (lib/config/define.ts says how a row reads), parsed
// once. Each process checks them all as it starts (checkSettings) and refuses to start with one
// message naming every bad value; the code reads them through settings(), never process.env.
import { DURATION_SETTINGS } from './durations';
import { parseSettings, SettingsError, type Values } from './define';
import { ACCOUNT_SETTINGS, ADDRESS_SETTINGS, FEE_SETTINGS, SECRET_SETTINGS, SERVICE_SETTINGS } from './service';

export const SETTINGS = { ...ADDRESS_SETTINGS, ...SERVICE_SETTINGS, ...ACCOUNT_SETTINGS, ...SECRET_SETTINGS, ...FEE_SETTINGS, ...DURATION_SETTINGS };

export type Settings = Values<typeof SETTINGS>;

type Env = Record<string, string | undefined>;

let current: Settings | undefined;

/** This process's settings, read from its environment at the first call. */
export function settings(): Settings {
  current ??= parseSettings(SETTINGS, process.env);
  return current;
}

/** The settings as `env` gives them (a process about to be started, a test); throws SettingsError. */
export const readSettings = (env: Env): Settings => parseSettings(SETTINGS, env);

/**
 * Reads the settings again: for a process that sets its own environment after its start (the
 * start script's database and pool addresses) and for tests that change one.
 */
export function reloadSettings(): Settings {
  current = undefined;
  return settings();
}

/** Every bad value in `env`, one message each (empty: all good). */
export function checkSettings(env: Env = process.env): string[] {
  try {
    parseSettings(SETTINGS, env);
    return [];
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    throw error;
  }
}
