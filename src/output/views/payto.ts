// PayTo agreements (contract: Resources → PayTo agreement: `token` and `status`; the other
// fields are shown when the service sends them) and alias look-ups (shape not shown).
import type { Agreement, AgreementSent } from '../../client/schemas/payto.js'
import { defineView, type Column } from '../view.js'
import { genericView } from './generic.js'

type AnyAgreement = Agreement | AgreementSent

const token: Column<AnyAgreement> = { key: 'token', header: 'Token' }
const status: Column<AnyAgreement> = { key: 'status', header: 'Status' }

export const agreementView = defineView<AnyAgreement>({
  name: 'PayTo agreement',
  columns: [token, status, { key: 'agreementType', header: 'Type' }, { key: 'amount', header: 'Amount', kind: 'money' }],
  detail: [
    token,
    status,
    { key: 'agreementUid', header: 'Agreement UID' },
    { key: 'agreementType', header: 'Type' },
    { key: 'amount', header: 'Amount', kind: 'money' },
    { key: 'customerName', header: 'Customer' },
    { key: 'accountIdentifierHint', header: 'Account' },
    { key: 'purpose', header: 'Purpose' },
    { key: 'createdAt', header: 'Created', kind: 'date' },
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})

/** The answer of sending an agreement: the token to keep, and the status. */
export const agreementSentView = defineView<AnyAgreement>({
  name: 'PayTo agreement',
  columns: [token, status],
})

/** An alias look-up: the display name and whatever else the service sends. */
export const aliasView = genericView('PayTo alias')
