// The secret that signs the dashboard's session cookies: AUTH_SECRET, else NEXTAUTH_SECRET (npm
// start sets the first). Its own module: the API's bearer path reads it without loading next-auth.
import { settings } from '../config/settings';

export const authSecret = (): string | undefined => settings().authSecret ?? settings().nextAuthSecret ?? undefined;
