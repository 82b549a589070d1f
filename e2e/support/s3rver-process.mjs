// s3rver in a process of its own, for s3-server.ts. It needs Node's --openssl-legacy-provider: it
// makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps only there, and without
// it any listing longer than a page fails with a 500. Prints {"port":n} once listening; exits when
// its parent does (stdin closes).
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.on('end', () => process.exit(0)).resume();
