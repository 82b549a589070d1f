// npm run operator -- --email <address> [--revoke]   |   npm run operator -- --list
// Gives the account with that e-mail the instance operator's rights (or takes them with --revoke)
// on the install in DATA_DIR, beside a running `npm start` or without it, and writes the change to
// the operator's audit log as done from the command line. `--list` prints who holds the right.
// Exit codes: 0 done (also when nothing changed), 1 no such account or no database, 2 usage.
import { parseArgs } from 'node:util';
import { openInstallDatabase } from './lib/install-database';

const USAGE = 'usage: npm run operator -- --email <address> [--revoke]   or   npm run operator -- --list';
let values: { email?: string; revoke?: boolean; list?: boolean };
try {
  ({ values } = parseArgs({ options: { email: { type: 'string' }, revoke: { type: 'boolean' }, list: { type: 'boolean' } } }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.list ? values.email || values.revoke : !values.email?.trim()) {
  console.error(USAGE);
  process.exit(2);
}

const database = await openInstallDatabase('operator');
// Imported after the environment is set: lib/db reads DATABASE_URL on first use.
const { db } = await import('../lib/db');
const { listOperators, setOperatorRight } = await import('../lib/admin/operator-rights');
const { adminEmails } = await import('../lib/users/instance-admin');

try {
  if (values.list) {
    const operators = await listOperators();
    for (const o of operators) console.log(`${o.email}  operator since ${o.operatorSince!.toISOString()}`);
    const configured = adminEmails();
    if (configured.length > 0) console.log(`ADMIN_EMAILS (operator once the address is verified): ${configured.join(', ')}`);
    if (operators.length === 0 && configured.length === 0)
      console.log('no operator yet: `npm start` prints a claim link, or run npm run operator -- --email <address>');
  } else {
    const result = await setOperatorRight(values.email!, !values.revoke);
    const verb = result.operator ? 'is the operator of this installation' : 'is no longer an operator of this installation';
    console.log(`${result.email} ${result.changed ? verb : `${verb.replace('is no longer', 'was not')} (nothing changed)`}`);
  }
} catch (error) {
  console.error(`operator: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.$disconnect();
  await database.stop();
}
