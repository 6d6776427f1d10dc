/** The ledger's merchant event types (a handler writes each; anything else is event.unknown_type). */
export const MERCHANT_EVENT_TYPES = [
  'payin.recorded',
  'settlement.credited',
  'payout.debited',
  'payout.refunded',
  'payout.reversed',
  'balance.adjusted',
  'payin.refunded',
  'payin.refund_returned',
];

/** Merchant event types as the audit's breach text lists them. */
export const MERCHANT_EVENT_TYPES_TEXT = `${MERCHANT_EVENT_TYPES.slice(0, -1).join(', ')} or ${MERCHANT_EVENT_TYPES.at(-1)}`;

/** The platform's own journal entries (decision 0049), and the ledger commands that book them. */
export const PLATFORM_ENTRY_TYPES = ['payout.sent', 'payout.confirmed', 'acquirer.settled', 'rail.fee', 'adjustment'];
export const PLATFORM_COMMAND_TYPES = ['payout.send', 'payout.confirm', 'acquirer.settle', 'rail.fee'];
