// The data API's one error type (docs/connect.md, "Data API"); what it says for routing-engine
// errors is its table in proxy/routing/refusals.ts. Handlers throw DataApiError; only
// handle-data-api.ts writes a response.

export interface FieldIssue {
  field: string;
  message: string;
}

export class DataApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: FieldIssue[],
  ) {
    super(message);
  }
}

/** A 400 whose `details` name each bad field; the message lists the same. */
export function invalidRequest(details: FieldIssue[]): DataApiError {
  return new DataApiError(400, `invalid request: ${details.map((d) => `${d.field}: ${d.message}`).join('; ')}`, {}, details);
}
