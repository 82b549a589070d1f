// npm run reset-password -- --email <address>
// For an install without a mail server: prints a one-time link that sets a new password for the
// account, as the "Forgot password" mail would (valid one hour; earlier links stop working; using
// it signs out the account's other sessions). Whoever runs it holds the installation, so it is the
// operator's act and goes to the operator's audit log. Works beside a running `npm start` or without it.
// Exit codes: 0 printed, 1 no such account or no database, 2 usage.
import { parseArgs } from 'node:util';
import { openInstallDatabase } from './lib/install-database';

const USAGE = 'usage: npm run reset-password -- --email <address>';
let values: { email?: string };
try {
  ({ values } = parseArgs({ options: { email: { type: 'string' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!values.email?.trim()) {
  console.error(USAGE);
  process.exit(2);
}

const database = await openInstallDatabase('reset-password');
// Imported after the environment is set: lib/db reads DATABASE_URL on first use.
const { db } = await import('../lib/db');
const { shellResetLink } = await import('../lib/users/reset-password');

try {
  const { email, link } = await shellResetLink(values.email);
  console.log(`Open this link within an hour to set a new password for ${email} (it works once):\n${link}`);
} catch (error) {
  console.error(`reset-password: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
  await database.stop();
}
