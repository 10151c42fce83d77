// Names the CLI knows that the contract does not list in full: webhook event names and
// simulation actions. Both are those of the emulator (docs/emulator.md); the contract names only
// `MerchantCreated` and says the complete lists are not shown.

/** Every event the emulator sends (docs/emulator.md, "Events" and "More events"). */
export const KNOWN_EVENTS = [
  'MerchantCreated',
  'MerchantUpdated',
  'CustomerCreated',
  'MarketplaceCustomerCreated',
  'PaymentSourceCreated',
  'PayToAgreementCreated',
  'PayToAgreementStatusChanged',
  'OrderCreated',
  'OrderCancelled',
  'TransactionPaid',
  'TransactionFailed',
  'TransactionRefunded',
  'PayoutCreated',
  'PayoutPaid',
  'DisputeOpened',
  'DisputeClosed',
  'PayPlanCreated',
  'DigitalCardIssued',
  'DigitalCardUpdated',
  'CardBlocked',
] as const

/** The simulation actions `payfac simulate` sends (docs/emulator.md, "Simulation"). */
export const SIMULATION_ACTIONS = [
  'AdvanceClock',
  'SetPayToAgreementStatus',
  'IncomingBankTransfer',
  'OpenDispute',
  'ResolveDispute',
  'SettlePayout',
  'RunScheduledPayouts',
  'SetMerchantManualPayouts',
  'RaiseBlockedCardEvent',
] as const

/** The event names among `events` that no list knows (`*` is known), for a warning. */
export function unknownEvents(events: readonly string[]): string[] {
  return events.filter((name) => name !== '*' && !(KNOWN_EVENTS as readonly string[]).includes(name))
}
