// A declaration gives the wrapper its options and the handler a context typed from it
// (lib/api/declared.ts). The typecheck proves the types: each @ts-expect-error line fails it if the
// context stops narrowing there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { OPERATIONS } from '../openapi/operations';
import { userEndpoints } from '../users/endpoints';
import { webhookEndpoints } from '../webhooks/endpoints';
import { operation } from '../openapi/operation';
import { optionsOf, type EndpointContext } from './declared';

test('a declaration stands for the options its route gave the wrapper', () => {
  assert.deepEqual(optionsOf(webhookEndpoints.updateWebhook), {
    auth: 'required',
    workspace: 'required',
    router: false,
    role: 'admin',
    cookieOnly: false,
    counted: true,
    body: webhookEndpoints.updateWebhook.body,
    maxBodyBytes: undefined,
    query: undefined,
    errors: 'standard',
  });
  assert.deepEqual(
    { ...optionsOf(userEndpoints.getMe), body: undefined },
    {
      auth: 'pending-deletion-ok',
      workspace: 'optional',
      router: false,
      role: undefined,
      cookieOnly: false,
      counted: undefined,
      body: undefined,
      maxBodyBytes: undefined,
      query: undefined,
      errors: 'standard',
    },
  );
  const router = operation({
    method: 'get',
    path: '/v1/x/{id}',
    operationId: 'x',
    tag: 't',
    summary: 's',
    auth: 'cookie',
    scope: 'router',
    errorStyle: 'billing',
    responses: {},
  });
  assert.deepEqual(
    [optionsOf(router).router, optionsOf(router).cookieOnly, optionsOf(router).errors, optionsOf(router).workspace],
    [true, true, 'billing', 'required'],
  );
  assert.equal(optionsOf({ ...router, auth: 'none', scope: 'none' }).auth, 'none');
  assert.equal(optionsOf({ ...router, auth: 'optional', scope: 'none' }).workspace, 'none');
});

test("the proxy's operations have no route file", () => {
  const onProxy = OPERATIONS.filter((op) => op.proxy);
  assert.ok(onProxy.length > 0);
  for (const op of onProxy) assert.throws(() => optionsOf(op), /served by the proxy/);
});

test('the context is typed from the declaration', () => {
  const update = (ctx: EndpointContext<typeof webhookEndpoints.updateWebhook>) => {
    const id: string = ctx.params.id;
    const label: string | undefined = ctx.body.label;
    // @ts-expect-error the path has no such parameter
    void ctx.params.slug;
    // @ts-expect-error a webhook call is not resolved to a router
    void ctx.router;
    return [id, label, ctx.workspace.id, ctx.user.email];
  };
  const me = (ctx: EndpointContext<typeof userEndpoints.getMe>) => {
    // @ts-expect-error the caller may have no workspace yet
    void ctx.workspace.id;
    return ctx.workspace?.id;
  };
  const open = operation({
    method: 'get',
    path: '/v1/open',
    operationId: 'open',
    tag: 't',
    summary: 's',
    auth: 'optional',
    scope: 'none',
    query: z.object({ q: z.string() }),
    responses: {},
  });
  const anyone = (ctx: EndpointContext<typeof open>) => {
    // @ts-expect-error anyone may call: the caller may be null
    void ctx.user.id;
    // @ts-expect-error no workspace is resolved
    void ctx.workspace;
    return ctx.query.q;
  };
  assert.deepEqual([typeof update, typeof me, typeof anyone, optionsOf(open).auth], ['function', 'function', 'function', 'optional']);
});
