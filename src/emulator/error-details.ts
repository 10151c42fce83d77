// A `detail` for the errors of state rules, where a person reading the error wants to know what
// to do next. Real clients show errors as `message [errorCode] detail` (field notes), so an error
// that names a rule but not the way out leaves the shopper or the operator stuck. A detail given
// where the error is thrown (with the figures of the case) wins over these.

const NEXT_STEPS: Record<string, string> = {
  // Orders and payments
  order_already_paid: 'A paid order is final: refund its transaction (PATCH /transactions/{transactionId} CreateRefund) to give money back.',
  order_cancelled: 'A cancelled order cannot be reopened: create a new order for the customer to pay.',
  payment_token_used: 'Each payment token pays once: create a new token for this order.',
  payment_token_expired: 'Payment tokens last 30 minutes: create a new token and pay again.',
  amount_mismatch: 'Create the payment token for exactly the amount and currency of the order.',
  merchant_mismatch: 'Use a payment token made by the merchant of the order.',
  customer_mismatch: 'Use a payment token of the customer the order belongs to.',
  payment_method_mismatch: 'Pay with the action that matches the token: PayByPayTo for PayTo, PayByCard for cards, or PayByPaymentToken for any kind.',
  three_ds_not_pending: 'Start the payment with PayByCard; send Confirm3DSComplete after the challenge it asks for.',
  agreement_not_active: 'Only an Active PayTo agreement can pay: check its status with GET /payto/agreement?token=…, or send a new agreement.',
  agreement_used: 'A one-off PayTo agreement pays once: send a new agreement, or use an open one for repeated payments.',
  // Transactions
  transaction_not_refundable: 'Only paid, accepted or partially refunded transactions can be refunded.',
  refund_exceeds_remaining: 'Refund at most what remains: the amount paid less the refunds already made.',
  transaction_not_capturable: 'Capture applies to card payments made with authoriseOnly (status not_captured).',
  transaction_has_transfers: 'Reverse the transfers first, then cancel the payment.',
  transaction_not_transferable: 'Only paid or captured funds can be transferred.',
  transfer_exceeds_available: 'Transfer at most what is left of the payment after earlier transfers.',
  transfer_already_reversed: 'Nothing is left to reverse on this transfer.',
  reversal_exceeds_transfer: 'Reverse at most what is left of the transfer.',
  transaction_not_disputable: 'Only a transaction with paid money left on it (not fully refunded) can be disputed.',
  dispute_exceeds_disputable: 'Dispute at most what was paid, less refunds and open disputes.',
  dispute_not_open: 'A dispute that is closed cannot change again.',
  // Payouts and merchants
  manual_payouts_disabled: 'Manual payouts are a setting of the merchant; ask the marketplace to enable them.',
  no_bank_account: 'Add a bank account to the merchant (PATCH /merchants/{merchantId} AddMerchantBankAccount), then request the payout again.',
  payout_already_paid: 'A paid payout is final.',
  bank_account_exists: 'The account is already on the merchant; make it primary with SetMerchantPrimaryBankAccount if needed.',
  // Pay plans, cards, tokens, sources
  offer_already_used: 'Each pay plan offer makes one pay plan: request a new offer.',
  offer_expired: 'Offers last 10 minutes: request a new offer and create the pay plan from it.',
  customer_not_verified: 'Run the KYC check (POST /customers/kyc) or upsert the customer with isVerified: true.',
  card_already_blocked: 'The card is blocked already; its blocked-card event can unblock it (PATCH /sources/blockedcards/{cardBlockId} UnblockCard).',
  card_not_blocked: 'The card is not blocked; nothing to unblock.',
  card_status_conflict: 'Cancelled cards are final; issue a new card.',
  loan_not_active: 'Cards are issued against an Active loan only.',
  service_token_revoked: 'Revoked service tokens are final: create a new one.',
  agreement_not_open: 'Save an open PayTo agreement; pay a one-off agreement directly with CreatePayToToken.',
  agreement_already_saved: 'Use the payment source already saved for this agreement (GET /sources).',
  delegate_linked_elsewhere: 'Move the delegate with the LinkDelegateToCustomer action.',
}

/** The detail for a state-rule error without one of its own, if there is one. */
export function nextStepFor(errorCode: string): string | undefined {
  return Object.hasOwn(NEXT_STEPS, errorCode) ? NEXT_STEPS[errorCode] : undefined
}
