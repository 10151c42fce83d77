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

/** What each simulation action takes, and an example of its fields (docs/emulator.md, "Simulation"). */
export const SIMULATION_HELP: Record<(typeof SIMULATION_ACTIONS)[number], { fields: string; does: string; example: string }> = {
  AdvanceClock: { fields: 'seconds (> 0)', does: 'moves the emulator clock forward', example: '{"seconds":3600}' },
  SetPayToAgreementStatus: {
    fields: 'token, status (Pending, Active, Declined, Suspended, Cancelled, Expired)',
    does: "answers a PayTo agreement in the customer's place",
    example: '{"token":"ptagr_Ab12Cd34Ef56Gh78","status":"Active"}',
  },
  IncomingBankTransfer: {
    fields: 'merchantId, amount (Money in minor units), description?',
    does: 'money arriving for a merchant, available at once',
    example: '{"merchantId":"mcht_LocalMerchant001","amount":{"minorCurrencyUnits":50000,"currency":"AUD"}}',
  },
  OpenDispute: {
    fields: 'transactionId, amount? (minor units), reason?',
    does: 'a customer disputes a paid transaction',
    example: '{"transactionId":"tran_Ab12Cd34Ef56Gh78","reason":"Not received"}',
  },
  ResolveDispute: { fields: 'disputeId, outcome (Won or Lost)', does: 'closes a dispute', example: '{"disputeId":"dispute_Ab12Cd34Ef56Gh78","outcome":"Won"}' },
  SettlePayout: { fields: 'payoutId', does: 'a Pending payout reaches the bank (Paid)', example: '{"payoutId":"payout_Ab12Cd34Ef56Gh78"}' },
  RunScheduledPayouts: {
    fields: 'merchantId?',
    does: 'the automatic payout run of the whole available balance',
    example: '{"merchantId":"mcht_LocalMerchant001"}',
  },
  SetMerchantManualPayouts: {
    fields: 'merchantId, enabled (true or false)',
    does: 'turns manual payouts on or off',
    example: '{"merchantId":"mcht_LocalMerchant001","enabled":true}',
  },
  RaiseBlockedCardEvent: {
    fields: 'paymentSourceId (a saved card), reason?',
    does: 'the card scheme blocks a saved card',
    example: '{"paymentSourceId":"psrc_Ab12Cd34Ef56Gh78","reason":"Reported lost"}',
  },
}

/** The action list of `simulate --help`: one paragraph per action, its fields and an example. */
export function simulationActionsHelp(bin = 'payfac'): string {
  return SIMULATION_ACTIONS.map((action) => {
    const help = SIMULATION_HELP[action]
    return `${action}: ${help.does}. Fields: ${help.fields}.\n  ${bin} simulate ${action} --data '${help.example}'`
  }).join('\n\n')
}

/** The event names among `events` that no list knows (`*` is known), for a warning. */
export function unknownEvents(events: readonly string[]): string[] {
  return events.filter((name) => name !== '*' && !(KNOWN_EVENTS as readonly string[]).includes(name))
}
