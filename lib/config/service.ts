// The hosted service's settings (web and proxy processes, and the scripts that start them): one row
// per environment variable, read with the durations (lib/config/settings.ts). The README's
// configuration table describes each for an operator; scripts/env-vars.test.ts holds the two to
// each other. The pool's own settings are in proxy/pool/config.ts; the gateway command's in
// proxy/cli/ (its `gateway.yml` is its configuration).
import { base64Key, decimal, flag, oneOf, optionalText, secret, sqlName, text, url, whole, wholes, words } from './define';

const PORT: [number, number] = [0, 65_535];
const PER_IP: [number, number] = [1, 10_000_000];

export const ADDRESS_SETTINGS = {
  dataDir: text('DATA_DIR', '.data', 'the embedded database, generated secrets and the blobs'),
  port: whole('PORT', null, 9_500, PORT, "the proxy's port"),
  webPort: whole('WEB_PORT', null, 3_000, PORT, "the web process's port"),
  poolPort: whole('POOL_PORT', null, 9_600, PORT, "the local browser pool's port (loopback)"),
  embeddedPgPort: whole('EMBEDDED_PG_PORT', null, 54_329, PORT, 'the embedded PostgreSQL (loopback)'),
  host: text('HOST', '127.0.0.1', 'the bind address of web and proxy'),
  publicWebUrl: url('PUBLIC_WEB_URL', ['http', 'https'], "the dashboard's public address"),
  publicProxyUrl: url('PUBLIC_PROXY_URL', ['ws', 'wss', 'http', 'https'], "the proxy's public address"),
  proxyInternalUrl: url(
    'PROXY_INTERNAL_URL',
    ['http', 'https'],
    "where the web process reaches a proxy's internal endpoints; the address a proxy registers for them",
  ),
  localPoolUrl: url('LOCAL_POOL_URL', ['ws', 'wss', 'http', 'https'], 'the local browser pool, the first provider of new routers'),
  databaseUrl: secret(url('DATABASE_URL', ['postgres', 'postgresql'], 'an external PostgreSQL instead of the embedded one')),
};

export const SERVICE_SETTINGS = {
  databasePoolSize: whole('DATABASE_POOL_SIZE', null, 10, [1, 1_000], 'database connections per process'),
  proxyInstanceId: optionalText('PROXY_INSTANCE_ID', 'names a proxy across restarts'),
  proxyLane: oneOf('PROXY_LANE', ['fast', 'pipeline'], 'fast', 'how the proxy relays sessions'),
  trustProxy: flag('TRUST_PROXY', false, 'behind a reverse proxy that sets X-Forwarded-*'),
  encodeConcurrency: whole('ENCODE_CONCURRENCY', null, 1, [0, 64], 'recording encodes a proxy runs at once; 0 runs no job worker'),
  webhookDelivery: flag('WEBHOOK_DELIVERY', true, 'whether this proxy runs a webhook delivery worker'),
  jobsSchema: sqlName('JOBS_SCHEMA', 'jobs', 'the PostgreSQL schema of the job queue'),
  logLevel: oneOf('LOG_LEVEL', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], 'info', 'the log level'),
  logDestination: oneOf('LOG_DESTINATION', ['stdout', 'stderr'], 'stdout', 'where log lines go'),
  gatewayName: text('GATEWAY_NAME', 'browser-router', 'the sender named in webhooks'),
  localPoolAutoProvider: flag('LOCAL_POOL_AUTO_PROVIDER', true, 'new routers get the local pool as their first provider'),
  adapterOneBaseUrl: url('ADAPTER_ONE_BASE_URL', ['http', 'https'], "the first key-based vendor's API"),
  adapterTwoBaseUrl: url('ADAPTER_TWO_BASE_URL', ['http', 'https'], "the second key-based vendor's API"),
  privateNetwork: oneOf('PRIVATE_NETWORK', ['deny', 'allow'], 'deny', 'the egress policy for private addresses'),
  internalPorts: wholes('INTERNAL_PORTS', null, [], [1, 65_535], "more ports tenants' connections may never reach", 100),
};

export const ACCOUNT_SETTINGS = {
  adminEmails: words('ADMIN_EMAILS', 'the instance operators, once verified', { lower: true }),
  signUpsPerHourPerIp: whole('SIGN_UPS_PER_HOUR_PER_IP', null, 20, PER_IP, 'sign-ups per client address per hour'),
  signInFailuresPerIp: whole('SIGN_IN_FAILURES_PER_IP', null, 50, PER_IP, 'failed sign-ins per client address per 15 minutes'),
  passwordResetsPerHourPerIp: whole('PASSWORD_RESETS_PER_HOUR_PER_IP', null, 20, PER_IP, 'password reset requests per client address per hour'),
  smtpUrl: secret(url('SMTP_URL', ['smtp', 'smtps'], 'the mail server; without it mail goes to the outbox')),
  mailFrom: text('MAIL_FROM', 'Browser Router <no-reply@localhost>', 'the sender of mail'),
};

export const SECRET_SETTINGS = {
  authSecret: secret(optionalText('AUTH_SECRET', 'signs dashboard session cookies')),
  nextAuthSecret: secret(optionalText('NEXTAUTH_SECRET', 'read when AUTH_SECRET is not set')),
  encryptionKey: secret(base64Key('ENCRYPTION_KEY', 32, 'the AES-256-GCM key for secrets at rest')),
  poolToken: secret(optionalText('POOL_TOKEN', "the local pool's bearer token")),
  proxyInternalToken: secret(optionalText('PROXY_INTERNAL_TOKEN', "the credential of the proxy's internal endpoints")),
  stripeSecretKey: secret(optionalText('STRIPE_SECRET_KEY', 'takes top-ups through Stripe Checkout')),
  stripeWebhookSecret: secret(optionalText('STRIPE_WEBHOOK_SECRET', "the signing secret of Stripe's webhook")),
  stripeApiBase: url('STRIPE_API_BASE', ['http', 'https'], "another address for Stripe's API"),
};

const FEE_PERCENT: [number, number] = [0, 50];
const FEE_BP: [number, number] = [0, 5_000];
const FEE_CENTS: [number, number] = [0, 10_000];

export const FEE_SETTINGS = {
  cardFeePercent: decimal('BILLING_CARD_FEE_PERCENT', 2.9, FEE_PERCENT, "the card processor's fee, percent of the charge"),
  cardFeeBasisPoints: decimal('BILLING_CARD_FEE_BASIS_POINTS', 0, FEE_BP, 'further basis points of a card charge'),
  cardFeeFixedCents: decimal('BILLING_CARD_FEE_FIXED_CENTS', 30, FEE_CENTS, 'fixed cents per card charge'),
  cryptoFeePercent: decimal('BILLING_CRYPTO_FEE_PERCENT', 1.5, FEE_PERCENT, "the crypto processor's fee, percent of the charge"),
  cryptoFeeBasisPoints: decimal('BILLING_CRYPTO_FEE_BASIS_POINTS', 0, FEE_BP, 'further basis points of a crypto charge'),
  cryptoFeeFixedCents: decimal('BILLING_CRYPTO_FEE_FIXED_CENTS', 0, FEE_CENTS, 'fixed cents per crypto charge'),
};
