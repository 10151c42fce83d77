// The contract's 80 operations as data: method, path, an operationId, the topic, the client
// methods that send it, query parameters, the request body and the answer, each given by the
// client's own zod schemas. ./document.ts turns this table into an OpenAPI document; nothing here
// sends anything. Built on first call, so that importing this file builds no schema. The catalog
// itself is in operations-accounts.ts and operations-money.ts, written with operations-kit.ts.
import { z } from 'zod'
import type { Operation } from './operation-types.js'
import { accountOperations } from './operations-accounts.js'
import { operationKit } from './operations-kit.js'
import { moneyOperations } from './operations-money.js'

/** Said wherever the contract leaves a shape out; the schema stays open. */
export const NOT_SHOWN = 'Not shown by the contract (interface 3.0): any JSON value, passed as given.'
/** The same, for objects. */
export const NOT_SHOWN_OBJECT = 'Not shown by the contract (interface 3.0): any JSON object, passed as given.'

/** The error body: its fields are not shown by the contract; these are what real answers carry. */
export function apiErrorSchema(): z.ZodType {
  return z.looseObject({
    statusCode: z.number().int().optional(),
    errorCode: z.string().optional(),
    message: z.string().optional(),
    tracer: z.string().optional(),
    detail: z.string().optional(),
    errorTypeDescription: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
}

const TAGS: Record<string, string> = {
  Authentication: 'Sign-in for the checkout, and service tokens.',
  Customers: 'Consumer and organisation customers, delegates and KYC.',
  Merchants: 'Merchants: onboarding, bank accounts, balances, files, owners, industries.',
  'Payment sources': 'Saved payment sources and blocked-card events.',
  'Payment tokens': 'Single-use payment tokens.',
  'Pay plans': 'Pay plans: offers, plans and eligibility.',
  Orders: 'Orders: create, pay, cancel, change their reference.',
  Transactions: 'Transactions, refunds, payouts, invoices, settlement and disputes.',
  Marketplaces: 'Marketplaces and their customers.',
  Webhooks: 'Webhook subscriptions.',
  Loans: 'Loans, loan statements and statement entries.',
  'Card issuer': 'Digital card issuing.',
  PayTo: 'PayTo agreements and aliases.',
  Simulation: 'Sandbox-only simulation of external events.',
}

export function tags(): Array<{ name: string; description: string }> {
  return Object.entries(TAGS).map(([name, description]) => ({ name, description }))
}

let built: Operation[] | undefined

/** Every operation of the contract, in the contract's order. */
export function operations(): Operation[] {
  return (built ??= buildOperations())
}

function buildOperations(): Operation[] {
  const kit = operationKit()
  return [...accountOperations(kit), ...moneyOperations(kit)]
}
