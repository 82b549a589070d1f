// The body of POST /v1/billing/checkout: how many cents to add to the wallet.
import { z } from 'zod';
import { TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from './rates';

export const checkoutBody = z
  .object({
    topupUsdCents: z
      .number()
      .int(`use a whole number of cents from ${TOPUP_MIN_CENTS} to ${TOPUP_MAX_CENTS}`)
      .min(TOPUP_MIN_CENTS, `a top-up is at least ${TOPUP_MIN_CENTS} cents ($${TOPUP_MIN_CENTS / 100})`)
      .max(TOPUP_MAX_CENTS, `a top-up is at most ${TOPUP_MAX_CENTS} cents ($${(TOPUP_MAX_CENTS / 100).toLocaleString('en-US')})`),
  })
  .strict();
