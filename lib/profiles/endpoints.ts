// Profiles: saved browser state (docs/api.md, Profiles).
// Each entry declares one endpoint: its route file serves it through endpoint() (lib/api/endpoint.ts)
// and the OpenAPI document describes it (lib/openapi/document.ts).
import { z } from 'zod';
import { byId, operation } from '../openapi/operation';
import { ex, list, paged } from '../openapi/resources/common';
import { capturedStateSchema, playwrightStateSchema, profile, profileVersion } from '../openapi/resources/profiles';
import { createProfileSchema, exportProfileQuery, importPlaywrightSchema, listProfilesQuery, PROFILE_BODY_MAX_BYTES, updateProfileSchema } from './schemas';

const TAG = 'Profiles';
const slug = { slug: "the profile's slug" };
const common = { tag: TAG, auth: 'account', counted: true } as const;
const sizes = ['payload_too_large', 'profile_storage_cap_exceeded'] as const;

export const profileEndpoints = byId([
  operation({
    ...common,
    method: 'get',
    path: '/v1/profiles',
    operationId: 'listProfiles',
    summary: 'Profiles of the workspace',
    query: listProfilesQuery,
    responses: { 200: { description: 'One page of profiles, newest first', schema: paged(profile) } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/profiles',
    operationId: 'createProfile',
    role: 'admin',
    summary: 'Create a profile',
    description: 'Empty, or with a state in the native shape (`captured`). The body may be up to 30 MB.',
    body: createProfileSchema,
    maxBodyBytes: PROFILE_BODY_MAX_BYTES,
    bodyExample: {
      slug: 'shop-login',
      name: 'Shop login',
      captured: {
        version: 1,
        cookies: [{ name: 'sid', value: 'a1b2c3', domain: 'shop.example.com', path: '/', httpOnly: true, secure: true, sameSite: 'Lax' }],
        storage: { 'https://shop.example.com': { localStorage: { cart: '[]' } } },
      },
    },
    errors: ['conflict', 'fair_use_limit_reached', ...sizes],
    responses: { 201: { description: 'The profile', schema: profile } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/profiles/import-playwright',
    operationId: 'importPlaywrightProfile',
    summary: 'Create a profile from a Playwright storage state',
    description: 'Any member. `origins` may carry `indexedDB`. The body may be up to 30 MB.',
    body: importPlaywrightSchema,
    maxBodyBytes: PROFILE_BODY_MAX_BYTES,
    bodyExample: {
      slug: 'crm',
      name: 'CRM session',
      storageState: {
        cookies: [{ name: 'sid', value: 'z9y8', domain: 'crm.example.com', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' }],
        origins: [{ origin: 'https://crm.example.com', localStorage: [{ name: 'theme', value: 'dark' }] }],
      },
    },
    errors: ['conflict', 'fair_use_limit_reached', ...sizes],
    responses: { 201: { description: 'The profile', schema: profile } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/profiles/{slug}',
    operationId: 'getProfile',
    params: slug,
    summary: 'One profile',
    responses: { 200: { description: 'The profile', schema: profile } },
  }),
  operation({
    ...common,
    method: 'patch',
    path: '/v1/profiles/{slug}',
    operationId: 'renameProfile',
    role: 'admin',
    params: slug,
    summary: 'Rename a profile',
    body: updateProfileSchema,
    bodyExample: { name: 'Shop login (EU)' },
    responses: { 200: { description: 'The whole profile', schema: profile } },
  }),
  operation({
    ...common,
    method: 'delete',
    path: '/v1/profiles/{slug}',
    operationId: 'deleteProfile',
    role: 'admin',
    params: slug,
    summary: 'Delete a profile',
    description: 'Every saved version goes with it; providers pinned to it take every session again.',
    responses: { 200: { description: 'Deleted', schema: z.object({ slug: z.string() }) } },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/profiles/{slug}/export',
    operationId: 'exportProfile',
    role: 'admin',
    params: slug,
    summary: "A profile's current state, decrypted",
    description: 'In the envelope; with `download=1` the body is the state itself (no envelope; errors keep it), as a file named by Content-Disposition.',
    query: exportProfileQuery,
    responses: {
      200: {
        description:
          '`format=native`: the native shape; `format=playwright`: a storage state Playwright takes as it is. With `download=1`: that state as the whole body, with `Content-Disposition: attachment; filename="<slug>.<format>.json"`',
        schema: z.union([capturedStateSchema, playwrightStateSchema]),
        example: { version: 1, capturedAt: ex.at, cookies: [], storage: {}, meta: { capturedOrigins: [], skippedOrigins: [], durationMs: 0 } },
      },
    },
  }),
  operation({
    ...common,
    method: 'get',
    path: '/v1/profiles/{slug}/versions',
    operationId: 'listProfileVersions',
    params: slug,
    summary: 'The kept versions of a profile',
    description: 'The 10 newest, newest first.',
    responses: { 200: { description: 'The versions', schema: list(profileVersion) } },
  }),
  operation({
    ...common,
    method: 'post',
    path: '/v1/profiles/{slug}/versions/{version}/restore',
    operationId: 'restoreProfileVersion',
    role: 'admin',
    params: { ...slug, version: 'a kept version number, from 1' },
    summary: 'Save a kept version again as the newest one',
    errors: ['profile_storage_cap_exceeded'],
    responses: { 200: { description: 'The whole profile', schema: profile } },
  }),
]);
