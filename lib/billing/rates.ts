// Every price and money limit of the product, in one place (docs/billing.md). Money is integer
// millicents: 1 US dollar = 100 cents = 100,000 millicents.

export const MILLICENTS_PER_CENT = 1_000n;
export const MILLICENTS_PER_DOLLAR = 100_000n;

/** Connect sessions and successful data-API calls included each UTC month (docs/connect.md, Limits). */
export const FREE_SESSIONS_PER_MONTH = 10_000;
/** 0.0005 US dollar for each session or data-API call above the free count. */
export const SESSION_OVERAGE_MILLICENTS = 50n;
/** 0.007 US dollar a minute of recording, billed per second at the session's end. */
export const RECORDING_MILLICENTS_PER_MINUTE = 700n;
/** 0.05 US dollar per 1,000 trace events. */
export const TRACE_MILLICENTS_PER_1K_EVENTS = 5_000n;

/** A top-up is between 5 and 25,000 US dollars. */
export const TOPUP_MIN_CENTS = 500;
export const TOPUP_MAX_CENTS = 2_500_000;

/** The rates as docs/api.md's Billing summary reports them (cents, numbers). */
export const publicRates = {
  overageRateCents: Number(SESSION_OVERAGE_MILLICENTS) / 1000,
  recordingPerMinuteCents: Number(RECORDING_MILLICENTS_PER_MINUTE) / 1000,
  observabilityPer1kEventsCents: Number(TRACE_MILLICENTS_PER_1K_EVENTS) / 1000,
};

/** A single operator grant is 1 cent to 100,000 US dollars. */
export const MAX_GRANT_CENTS = 10_000_000;
