// s3rver in a process of its own, for s3-server.ts. It needs Node's --openssl-legacy-provider: it
// makes ListObjectsV2 continuation tokens with DES, which OpenSSL 3 keeps only there, and without
// it any listing longer than a page fails with a 500. Prints {"port":n} once listening; exits when
// its parent does (stdin closes).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import S3rver from 's3rver';
import FilesystemStore from 's3rver/lib/stores/filesystem.js';

const [directory, bucket] = process.argv.slice(2);

// S3 reads what was just written. s3rver answers a PUT (or a multipart upload's completion) before
// its file is on disk: it does not wait for the write stream to finish, so a GET right after, on a
// busy machine, read an empty object (seen once in the store contract test). Objects are written
// whole to a scratch file beside the store and renamed into place before the answer.
const scratch = `${directory}.incoming`;
FilesystemStore.prototype.putObject = async function putObject(object) {
  const content = Buffer.isBuffer(object.content) ? object.content : await buffer(object.content);
  const objectPath = this.getResourcePath(object.bucket, object.key, 'object');
  await Promise.all([mkdir(path.dirname(objectPath), { recursive: true }), mkdir(scratch, { recursive: true })]);
  const incoming = path.join(scratch, randomBytes(8).toString('hex'));
  await writeFile(incoming, content);
  await rename(incoming, objectPath);
  const md5 = createHash('md5').update(content).digest('hex');
  await this.putMetadata(object.bucket, object.key, object.metadata, md5);
  return { size: content.length, md5 };
};

const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.stdin.on('end', () => process.exit(0)).resume();
