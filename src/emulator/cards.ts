// Test cards (the emulator's own): what a card number does when it pays. Any other number that
// passes the Luhn check is approved; numbers that fail it are refused when the card is saved.
import { passesLuhn } from '../client/redact.js'
import { badRequest, unprocessable } from './api-error.js'
import type { CardDetails } from './store.js'

export const TEST_CARDS: Readonly<Record<string, CardDetails['behaviour']>> = {
  '4242424242424242': 'approve',
  '5555555555554444': 'approve',
  '4000000000003220': 'challenge',
  '4000000000000002': 'do_not_honor',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
  '4100000000000019': 'fraudulent',
  '4000000000009979': 'stolen_card',
  '4000000000009987': 'pickup_card',
}

/** Messages for decline codes (the codes real integrations see). */
export const DECLINE_MESSAGES: Readonly<Record<string, string>> = {
  do_not_honor: 'The card was declined by the issuer',
  insufficient_funds: 'The account has insufficient funds',
  expired_card: 'The card has expired',
  incorrect_cvc: 'The card security code is incorrect',
  fraudulent: 'The payment was declined as suspected fraud',
  stolen_card: 'The card was reported stolen',
  pickup_card: 'The card cannot be used for this payment',
}

/** 12 to 19 digits passing the Luhn check (the client's redaction uses the same check). */
export function luhnValid(digits: string): boolean {
  return /^\d{12,19}$/.test(digits) && passesLuhn(digits)
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'Visa'
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'Mastercard'
  if (/^3[47]/.test(digits)) return 'Amex'
  return 'Other'
}

/**
 * A card as typed (a saved source or a checkout page): the number's check, the expiry against
 * emulator time, and what paying with it does. 400 `invalid_card_number`, 422 `expired_card`.
 */
export function readCard(cardNumber: string, expiryMonth: number, expiryYear: number, now: Date): CardDetails {
  const digits = cardNumber.replace(/[ -]/g, '')
  if (!luhnValid(digits)) throw badRequest('invalid_card_number', 'The card number is not valid')
  const expired = expiryYear < now.getUTCFullYear() || (expiryYear === now.getUTCFullYear() && expiryMonth < now.getUTCMonth() + 1)
  if (expired) throw unprocessable('expired_card', 'The card has expired')
  return { brand: cardBrand(digits), last4: digits.slice(-4), expiryMonth, expiryYear, behaviour: TEST_CARDS[digits] ?? 'approve' }
}
