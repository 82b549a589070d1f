// Imported first by the pool's entry point: lib/log reads SERVICE_NAME when it is loaded.
process.env.SERVICE_NAME ??= 'pool';
