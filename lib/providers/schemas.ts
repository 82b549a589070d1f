// Input of the providers endpoints (docs/api.md, "Providers"): every range and default appears here once.
import { z } from 'zod';
import { withFieldErrors } from '../api/validation';

export const PROVIDER_SLUG_MAX = 64;
export const PROVIDER_HEADERS_MAX = 20;
export const HEADER_NAME_MAX = 128;
export const HEADER_VALUE_MAX = 4_096;
export const PRIORITY_DEFAULT = 100;
export const WEIGHT_DEFAULT = 100;
export const ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT = 240;
// Adapter one keeps a vendor browser 15 minutes for a reconnect; an idle timeout shorter than that
// would let the vendor end it first, so the default covers the window (docs/decisions-providers.md).
export const ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT = 900;

// These path segments are endpoints of their own (POST /v1/providers/verify-key …); a provider
// with one of them as its slug could never be read at GET /v1/providers/:slug.
export const RESERVED_SLUGS = ['verify-key', 'test-url', 'probe'] as const;

export const providerSlugSchema = z
  .string()
  .max(PROVIDER_SLUG_MAX, `use at most ${PROVIDER_SLUG_MAX} characters`)
  .regex(/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/, 'use letters, digits and single hyphens (not at the start or end)')
  .refine((slug) => !(RESERVED_SLUGS as readonly string[]).includes(slug), 'this slug is reserved by the API');

const nameSchema = z.string().trim().min(1, 'enter a name').max(100, 'use at most 100 characters');
const rankSchema = z.number({ message: 'use a whole number from 1 to 1000' }).int('use a whole number').min(1, 'use 1 to 1000').max(1000, 'use 1 to 1000');
const maxConcurrentSchema = z
  .number({ message: 'use a whole number from 1 to 1000, or null for no limit' })
  .int('use a whole number')
  .min(1, 'use 1 to 1000')
  .max(1000, 'use 1 to 1000');
const profileSlugSchema = z.string({ message: 'use a profile slug' }).min(1, 'name a profile').max(64, 'use at most 64 characters');
// `null` is rejected on create (spec): omit the field to take every session.
const createProfileSchema = z
  .string({ message: 'use a profile slug, or omit the field to take every session' })
  .min(1, 'name a profile')
  .max(64, 'use at most 64 characters')
  .optional();

export const providerUrlSchema = z
  .string()
  .trim()
  .max(2_048, 'use at most 2048 characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return ['ws:', 'wss:', 'http:', 'https:'].includes(url.protocol) && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'use a ws:// or wss:// address (or the http(s):// base of a browser that serves /json/version)');

// Headers that the WebSocket handshake itself owns; letting a user set them would break the upgrade.
const HANDSHAKE_HEADERS = new Set(['host', 'connection', 'upgrade', 'content-length', 'transfer-encoding']);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const providerHeadersSchema = z
  .record(
    z.string(),
    z
      .string({ message: 'header values must be strings' })
      .max(HEADER_VALUE_MAX, `header values use at most ${HEADER_VALUE_MAX} characters`)
      .regex(/^[^\r\n\0]*$/, 'header values cannot contain line breaks'),
  )
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > PROVIDER_HEADERS_MAX) ctx.addIssue({ code: 'custom', message: `send at most ${PROVIDER_HEADERS_MAX} headers` });
    for (const name of names) {
      const lower = name.toLowerCase();
      if (name.length > HEADER_NAME_MAX || !HEADER_NAME.test(name)) {
        ctx.addIssue({ code: 'custom', path: [name], message: `not a valid HTTP header name (at most ${HEADER_NAME_MAX} characters)` });
      } else if (HANDSHAKE_HEADERS.has(lower) || lower.startsWith('sec-websocket-')) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'set by the WebSocket handshake itself' });
      }
    }
  });

// ---------------------------------------------------------------- key form (adapters)

export const ADAPTER_KINDS = ['adapter-one', 'adapter-two'] as const;
export type AdapterKind = (typeof ADAPTER_KINDS)[number];
export const ADAPTER_ONE_REGIONS = ['us-east', 'eu-west', 'ap-southeast'] as const;

export const adapterOneOptionsSchema = z.strictObject({
  region: z.enum(ADAPTER_ONE_REGIONS, { message: `use one of ${ADAPTER_ONE_REGIONS.join(', ')}` }).optional(),
  stealth: z.boolean({ message: 'use true or false' }).default(false),
  timeoutSeconds: z
    .number({ message: 'use a whole number of seconds' })
    .int('use a whole number')
    .min(10, 'use 10 to 259200')
    .max(259_200, 'use 10 to 259200')
    .default(ADAPTER_ONE_TIMEOUT_SECONDS_DEFAULT),
});

export const adapterTwoOptionsSchema = z.strictObject({
  timeoutMinutes: z
    .number({ message: 'use a whole number of minutes' })
    .int('use a whole number')
    .min(1, 'use 1 to 240')
    .max(240, 'use 1 to 240')
    .default(ADAPTER_TWO_TIMEOUT_MINUTES_DEFAULT),
  // Off unless given: null (or omitted) sends no proxy country to the vendor.
  proxyCountryCode: z
    .string()
    .regex(/^[a-z]{2}$/, 'use two lowercase letters, e.g. us')
    .nullable()
    .default(null),
});

export type AdapterOneOptions = z.infer<typeof adapterOneOptionsSchema>;
export type AdapterTwoOptions = z.infer<typeof adapterTwoOptionsSchema>;

export const credentialsSchema = z.strictObject({
  apiKey: z.string({ message: 'enter the API key' }).trim().min(1, 'enter the API key').max(512, 'use at most 512 characters'),
});

const routerInstanceId = z.string().max(64).optional(); // read by the wrapper to pick the router

const keyFormFields = {
  credentials: credentialsSchema,
  routerInstanceId,
};

const adapterVariants = [
  z.strictObject({ adapterKind: z.literal('adapter-one'), options: adapterOneOptionsSchema.default(adapterOneOptionsSchema.parse({})), ...keyFormFields }),
  z.strictObject({ adapterKind: z.literal('adapter-two'), options: adapterTwoOptionsSchema.default(adapterTwoOptionsSchema.parse({})), ...keyFormFields }),
] as const;

/** POST /v1/providers/verify-key: `{ adapterKind, credentials, options }`. */
const verifyKeyForms = z.discriminatedUnion('adapterKind', adapterVariants, { message: `use one of ${ADAPTER_KINDS.join(', ')}` });
export const verifyKeySchema = withFieldErrors(verifyKeyForms);
export type VerifyKeyInput = z.infer<typeof verifyKeyForms>;

// Beside the spec's four fields, the key form takes the fields every provider has (name, priority,
// weight, maxConcurrent, profile) so that a key-based provider needs no PATCH after creation.
const keyFormExtra = {
  slug: providerSlugSchema,
  name: nameSchema.optional(),
  priority: rankSchema.default(PRIORITY_DEFAULT),
  weight: rankSchema.default(WEIGHT_DEFAULT),
  maxConcurrent: maxConcurrentSchema.nullable().default(null),
  profile: createProfileSchema,
};
const keyFormSchema = z.discriminatedUnion('adapterKind', [adapterVariants[0].extend(keyFormExtra), adapterVariants[1].extend(keyFormExtra)], {
  message: `use one of ${ADAPTER_KINDS.join(', ')}`,
});

// ---------------------------------------------------------------- address form

const addressFormSchema = z.strictObject({
  slug: providerSlugSchema,
  name: nameSchema.optional(),
  url: providerUrlSchema,
  headers: providerHeadersSchema.optional(),
  priority: rankSchema.default(PRIORITY_DEFAULT),
  weight: rankSchema.default(WEIGHT_DEFAULT),
  // Omitted (or null) means no limit on our side; a managed provider's advertised capacity applies.
  maxConcurrent: maxConcurrentSchema.nullable().default(null),
  profile: createProfileSchema,
  routerInstanceId,
});

export type AddressFormInput = z.infer<typeof addressFormSchema>;
export type KeyFormInput = z.infer<typeof keyFormSchema>;
export type CreateProviderInput = AddressFormInput | KeyFormInput;

/** POST /v1/providers: the key form when `adapterKind` or `credentials` is present, else the address form. */
export const createProviderSchema = withFieldErrors(
  (input): z.ZodType<CreateProviderInput> =>
    typeof input === 'object' && input !== null && ('adapterKind' in input || 'credentials' in input)
      ? (keyFormSchema as z.ZodType<KeyFormInput>)
      : addressFormSchema,
  z.union([addressFormSchema, ...keyFormSchema.options]),
);

export const isKeyForm = (input: CreateProviderInput): input is KeyFormInput => 'adapterKind' in input;

// ---------------------------------------------------------------- the rest

/** PATCH /v1/providers/:slug: any subset; `profile: null` unpins, `headers: null` clears them. */
export const updateProviderSchema = withFieldErrors(
  z.strictObject({
    name: nameSchema.optional(),
    url: providerUrlSchema.optional(),
    headers: providerHeadersSchema.nullable().optional(),
    priority: rankSchema.optional(),
    weight: rankSchema.optional(),
    maxConcurrent: maxConcurrentSchema.nullable().optional(),
    profile: profileSlugSchema.nullable().optional(),
    enabled: z.boolean({ message: 'use true or false' }).optional(),
    routerInstanceId,
  }),
);
export type UpdateProviderInput = z.infer<typeof updateProviderSchema>;

/** POST /v1/providers/test-url and /probe: `{ url, headers? }`. */
export const addressCheckSchema = withFieldErrors(
  z.strictObject({
    url: providerUrlSchema,
    headers: providerHeadersSchema.optional(),
    routerInstanceId,
  }),
);

/** GET /v1/providers: page (default 1) and pageSize (default 25, up to 100), as GET /v1/sessions. */
export const listProvidersQuerySchema = withFieldErrors(
  z.object({
    page: z.coerce.number().int('use a whole number').min(1, 'pages start at 1').default(1),
    pageSize: z.coerce.number().int('use a whole number').min(1, 'use 1 to 100').max(100, 'use 1 to 100').default(25),
  }),
);
