import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { ApiReference } from '@/components/api-reference/api-reference';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { documentServers } from '@/lib/openapi/servers';

export const metadata: Metadata = { title: 'API reference' };

// Public, like GET /v1/openapi.json it is rendered from: a reference of the API holds nothing of
// anyone's. Outside the dashboard's frame, which needs a session; the addresses are this install's.
export default async function Page() {
  return <ApiReference document={buildOpenApiDocument(documentServers(await headers()))} />;
}
