// The API reference (/docs/api), rendered on the server from the OpenAPI document: an
// introduction (servers, credentials, errors), the operations grouped by tag with a search box,
// and the named schemas the operations link to.
import Link from 'next/link';
import type { OpenApiDocument } from '@/lib/openapi/document';
import { referenceErrors, referenceTags } from '@/lib/openapi/reference';
import type { JsonSchema } from '@/lib/openapi/schema';
import { LogoMark } from '../ui/icons';
import { errorAnchor, MethodBadge, OperationCard } from './operation';
import { SchemaView, schemaAnchor } from './schema-view';
import { Filtered, FilteredGroup, NoMatch, SearchBox, SearchProvider } from './search';
import { InlineText, Prose } from './text';

type Tag = ReturnType<typeof referenceTags>[number];

const tagAnchor = (name: string) => `tag-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

export function ApiReference({ document }: { document: OpenApiDocument }) {
  const tags = referenceTags(document);
  const errors = referenceErrors(document);
  const texts = tags.flatMap((t) => t.operations.map((op) => op.search));
  const info = document.info as { title: string; description: string };
  const web = (document.servers as { url: string }[])[0]!.url;
  const proxy = tags.flatMap((t) => t.operations).find((op) => op.onProxy)?.server;
  const schemes = document.components.securitySchemes as Record<string, { description: string }>;
  return (
    <SearchProvider>
      <div className="min-h-screen">
        <ReferenceHeader />
        <div className="mx-auto flex max-w-7xl">
          <OperationsNav tags={tags} />
          <main className="min-w-0 flex-1 px-4 py-8 lg:px-10">
            <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">{info.title}</h1>
            <Prose text={info.description} className="mt-2 max-w-3xl" />
            <ServersAndCredentials web={web} proxy={proxy} schemes={schemes} />
            <div className="sticky top-14 z-20 -mx-4 mt-8 border-b border-zinc-200 bg-zinc-50/95 px-4 py-3 backdrop-blur lg:-mx-10 lg:px-10">
              <SearchBox texts={texts} />
            </div>
            <Operations tags={tags} texts={texts} />
            <ErrorCodes errors={errors} />
            <Schemas schemas={document.components.schemas} />
          </main>
        </div>
      </div>
    </SearchProvider>
  );
}

/** The bar across the top: the product, where this is, the JSON document and the dashboard. */
function ReferenceHeader() {
  return (
    <header className="sticky top-0 z-30 border-b border-zinc-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-3 px-4 lg:px-6">
        <Link href="/" className="flex shrink-0 items-center gap-2 text-[15px] font-semibold tracking-tight text-zinc-900">
          <LogoMark className="size-6" />
          Browser Router
        </Link>
        <span className="hidden text-zinc-300 sm:inline" aria-hidden="true">
          /
        </span>
        <span className="hidden text-sm font-medium text-zinc-700 sm:inline">API reference</span>
        <nav aria-label="Reference links" className="ml-auto flex items-center gap-4 text-sm">
          <a href="/v1/openapi.json" className="hidden text-zinc-600 hover:text-zinc-900 sm:inline">
            OpenAPI JSON
          </a>
          <Link href="/overview" className="font-medium text-accent-600 hover:text-accent-700">
            Dashboard
          </Link>
        </nav>
      </div>
    </header>
  );
}

/** The operations by tag, beside the page on wide screens (filtered by the search). */
function OperationsNav({ tags }: { tags: Tag[] }) {
  return (
    <aside className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-64 shrink-0 overflow-y-auto border-r border-zinc-200 px-3 py-5 lg:block">
      <nav aria-label="Operations" className="space-y-4 text-[13px]">
        {tags.map((tag) => (
          <FilteredGroup key={tag.name} texts={tag.operations.map((op) => op.search)}>
            <a href={`#${tagAnchor(tag.name)}`} className="mb-1 block px-2 text-[11px] font-medium tracking-wider text-zinc-400 uppercase hover:text-zinc-600">
              {tag.name}
            </a>
            <ul className="space-y-px">
              {tag.operations.map((op) => (
                <Filtered key={op.id} as="li" text={op.search}>
                  <a href={`#${op.id}`} className="ref-nav-link">
                    <MethodBadge method={op.method} className="w-11 text-[10px]" />
                    <span className="truncate">{op.summary}</span>
                  </a>
                </Filtered>
              ))}
            </ul>
          </FilteredGroup>
        ))}
      </nav>
    </aside>
  );
}

/** Where to send requests, and the credentials the examples name. */
function ServersAndCredentials({ web, proxy, schemes }: { web: string; proxy: string | undefined; schemes: Record<string, { description: string }> }) {
  return (
    <div className="mt-6 grid max-w-4xl gap-4 md:grid-cols-2">
      <div className="rounded-xl border border-zinc-200 bg-white p-4 text-[13px]">
        <h2 className="font-semibold text-zinc-900">Servers</h2>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
          <dt className="text-zinc-500">Control plane</dt>
          <dd className="font-mono break-all">{web}</dd>
          {proxy && (
            <>
              <dt className="text-zinc-500">Proxy</dt>
              <dd className="font-mono break-all">{proxy}</dd>
            </>
          )}
        </dl>
        <p className="mt-2 text-zinc-500">
          The whole document:{' '}
          <a href="/v1/openapi.json" className="font-medium text-accent-600 hover:text-accent-700">
            /v1/openapi.json
          </a>{' '}
          (OpenAPI 3.1).
        </p>
      </div>
      <div className="rounded-xl border border-zinc-200 bg-white p-4 text-[13px]">
        <h2 className="font-semibold text-zinc-900">Credentials</h2>
        <dl className="mt-2 space-y-1.5 text-zinc-600">
          {[
            ['$ACCOUNT_TOKEN', schemes.accountToken!.description],
            ['$SESSION_COOKIE', schemes.dashboardSession!.description],
            ['$ROUTER_KEY', schemes.routerKey!.description],
          ].map(([name, description]) => (
            <div key={name}>
              <dt className="inline font-mono text-[12px] font-medium text-zinc-900">{name}</dt>{' '}
              <dd className="inline">
                <InlineText text={description!} />
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-2 text-zinc-500">The curl examples read them from the shell.</p>
      </div>
    </div>
  );
}

/** Every operation, grouped by tag; a search hides what does not match. */
function Operations({ tags, texts }: { tags: Tag[]; texts: string[] }) {
  return (
    <div className="mt-6 space-y-12">
      <NoMatch texts={texts} />
      {tags.map((tag) => (
        <FilteredGroup key={tag.name} texts={tag.operations.map((op) => op.search)}>
          <section aria-labelledby={tagAnchor(tag.name)}>
            <h2 id={tagAnchor(tag.name)} className="scroll-mt-32 text-lg font-semibold text-zinc-900">
              {tag.name}
            </h2>
            <Prose text={tag.description} className="mt-1" />
            <div className="mt-4 space-y-5">
              {tag.operations.map((op) => (
                <Filtered key={op.id} text={op.search}>
                  <OperationCard op={op} />
                </Filtered>
              ))}
            </div>
          </section>
        </FilteredGroup>
      ))}
    </div>
  );
}

/** The error codes and when each is answered. */
function ErrorCodes({ errors }: { errors: ReturnType<typeof referenceErrors> }) {
  return (
    <section aria-labelledby="errors" className="mt-16">
      <h2 id="errors" className="scroll-mt-32 text-lg font-semibold text-zinc-900">
        Errors
      </h2>
      <Prose
        className="mt-1 max-w-3xl"
        text="A control-plane failure is `{ ok: false, error: { code, message, details? } }`; the billing endpoints answer `{ ok: false, error: <code>, message }`, with `bad_request` for invalid input. The codes, and when each is answered:"
      />
      <ul className="ref-list mt-4">
        {errors.map((e) => (
          <li key={e.code} id={errorAnchor(e.code)} className="ref-row ref-line scroll-mt-32">
            <span className="w-9 font-mono font-semibold text-amber-700">{e.status}</span>
            <code className="ref-name">{e.code}</code>
            <span className="text-zinc-600">
              <InlineText text={e.meaning} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The named shapes the operations link to. */
function Schemas({ schemas }: { schemas: OpenApiDocument['components']['schemas'] }) {
  return (
    <section aria-labelledby="schemas" className="mt-16">
      <h2 id="schemas" className="scroll-mt-32 text-lg font-semibold text-zinc-900">
        Schemas
      </h2>
      <p className="mt-1 text-sm text-zinc-600">The shapes the operations above name.</p>
      <div className="mt-4 space-y-5">
        {Object.entries(schemas).map(([name, schema]) => (
          <article key={name} id={schemaAnchor(name)} className="scroll-mt-32 rounded-xl border border-zinc-200 bg-white p-5">
            <h3 className="font-mono text-sm font-semibold text-zinc-900">{name}</h3>
            <div className="mt-2">
              <SchemaView schema={{ ...(schema as JsonSchema) }} />
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
