// The job worker alone, as a process of its own, for the tests that kill it or stop it
// (e2e/api/recordings-jobs.test.ts): `node scripts/run.mjs e2e/support/job-worker.ts [--retention]`.
// It reads the product's settings (DATABASE_URL, DATA_DIR, JOBS_SCHEMA, ...) from its environment,
// says "ready" on stdout once it takes jobs, and stops on SIGTERM as the proxy does.
import { startJobWorker } from '../../lib/jobs';

const worker = await startJobWorker({ pollMs: 200, retention: process.argv.includes('--retention') });
console.log('ready');
process.once('SIGTERM', () => {
  void worker.stop().then(
    () => process.exit(0),
    (error: Error) => {
      console.error(error.message);
      process.exit(1);
    },
  );
});
