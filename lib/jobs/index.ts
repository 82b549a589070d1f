// Background jobs on PostgreSQL (pg-boss): the recordings' encodes and their retention sweep.
// Producers call enqueueEncode from any process; the proxy runs the worker (startJobWorker).
export { enqueueEncode, encodeExpirySeconds, encodeJobId, ENCODE_QUEUE } from './encode-recording';
export { startJobWorker, type JobWorker, type JobWorkerOptions } from './worker';
export { getBoss, stopBoss, jobsSchema } from './boss';
