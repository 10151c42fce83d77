// Merchants and what hangs off them: bank accounts, balances, onboarding files, beneficial
// owners, wallet-pay domains and industries. The contract shows none of these records; the
// fields are the emulator's (docs/emulator.md), and single-record tables add any other field.
import type { BeneficialOwner, Merchant, MerchantBalances, MerchantFile } from '../../client/schemas/merchants.js'
import { isMoney, isPlainObject } from '../flatten.js'
import { defineView, type Column, type View } from '../view.js'
import { withOtherFields } from './auth.js'
import { displayName } from './customers.js'
import { formatAddress } from './orders.js'

type Row = Record<string, unknown>

const text = (value: unknown) => (typeof value === 'string' ? value : undefined)

/** A bank account on one line; the account number masked to its last four digits (JSON keeps it whole). */
export function formatBankAccount(account: unknown): string {
  if (!isPlainObject(account)) return JSON.stringify(account)
  const number = text(account.accountNumber)
  const parts = [
    text(account.bankAccountId) ? `${account.bankAccountId}:` : undefined,
    text(account.bsb),
    number ? `****${number.slice(-4)}` : text(account.accountNumberHint),
    text(account.accountName),
    account.isPrimary === true ? '(primary)' : undefined,
  ]
  return parts.filter(Boolean).join(' ')
}

const primaryAccount = (m: Row) => {
  const accounts = Array.isArray(m.bankAccounts) ? m.bankAccounts : []
  return accounts.find((a) => isPlainObject(a) && a.isPrimary === true) ?? accounts[0]
}

const m = {
  merchantId: { key: 'merchantId', header: 'Merchant' },
  name: { key: 'name', header: 'Name' },
  industry: { key: 'industry', header: 'Industry' },
  status: { key: 'status', header: 'Status' },
  currency: { key: 'currency', header: 'Currency' },
  primaryBankAccount: {
    key: 'primaryBankAccount',
    header: 'Primary bank account',
    get: primaryAccount,
    display: (value) => (value === undefined ? '-' : formatBankAccount(value)),
  },
  createdAt: { key: 'createdAt', header: 'Created', kind: 'date' },
} satisfies Record<string, Column<Merchant>>

export const merchantView = defineView<Merchant>({
  name: 'merchant',
  columns: [m.merchantId, m.name, m.status, m.currency, m.industry, m.createdAt, m.primaryBankAccount],
  detail: [
    m.merchantId,
    { key: 'marketplaceId', header: 'Marketplace' },
    m.name,
    m.industry,
    { key: 'industryCode', header: 'Industry code' },
    m.status,
    { key: 'emailAddress', header: 'Email' },
    { key: 'phoneNumber', header: 'Phone' },
    { key: 'businessNumber', header: 'Business number' },
    { key: 'address', header: 'Address', display: (value) => formatAddress(value as Parameters<typeof formatAddress>[0]) ?? '-' },
    { key: 'websiteUrl', header: 'Website' },
    m.currency,
    { key: 'supportsB2B', header: 'Supports B2B' },
    { key: 'manualPayoutsEnabled', header: 'Manual payouts' },
    {
      key: 'bankAccounts',
      header: 'Bank accounts',
      display: (value) => (Array.isArray(value) && value.length > 0 ? value.map(formatBankAccount).join('; ') : '-'),
    },
    { key: 'publicKey', header: 'Public key' },
    { key: 'businessProfile', header: 'Business profile', kind: 'json' },
    { key: 'metadata', header: 'Metadata', kind: 'json' },
    m.createdAt,
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})

/** One merchant, with any field the service adds. */
export const merchantDetailView = withOtherFields(merchantView)

/** A new sub-merchant: its secret key, present only in the answer that creates it, comes first. */
export const createdMerchantView = withOtherFields(
  defineView<Merchant>({
    ...merchantView,
    detail: [m.merchantId, { key: 'secretKey', header: 'Secret key (shown once)' }, ...(merchantView.detail ?? []).slice(1)],
  }),
)

/**
 * Balances: one line per currency and kind (`Available AUD  12.50 AUD`). The answer is
 * `{merchantId, asOf, balances: [{currency, available, pending, total}]}`; other fields and other
 * shapes are shown as they come.
 */
export const balancesView: View<MerchantBalances> = {
  name: 'balances',
  columns: [],
  fromSample: (sample) => {
    const head: Column<MerchantBalances>[] = [
      { key: 'merchantId', header: 'Merchant' },
      { key: 'asOf', header: 'As of', kind: 'date' },
    ]
    const balances = Array.isArray(sample.balances) ? sample.balances : []
    const lines = balances.flatMap((balance, index) => {
      if (!isPlainObject(balance)) return []
      const currency = text(balance.currency) ?? String(index)
      return Object.entries(balance)
        .filter(([, value]) => isMoney(value))
        .map(
          ([kind]): Column<MerchantBalances> => ({
            key: `${kind}.${currency}`,
            header: `${kind.charAt(0).toUpperCase()}${kind.slice(1)} ${currency}`,
            kind: 'money',
            get: (r) => (Array.isArray(r.balances) && isPlainObject(r.balances[index]) ? r.balances[index][kind] : undefined),
          }),
        )
    })
    // Anything else (or balances in a shape not known here) is shown as it comes.
    const shown = lines.length > 0 ? ['merchantId', 'asOf', 'balances'] : ['merchantId', 'asOf']
    const others = Object.keys(sample)
      .filter((key) => !shown.includes(key))
      .map((key): Column<MerchantBalances> => (isMoney(sample[key]) ? { key, header: key, kind: 'money' } : { key, header: key }))
    const columns = [...head, ...lines, ...others]
    return { columns, detail: columns }
  },
}

const f = {
  fileId: { key: 'fileId', header: 'File' },
  fileName: { key: 'fileName', header: 'Name' },
  contentType: { key: 'contentType', header: 'Type' },
  size: { key: 'size', header: 'Bytes' },
  purpose: { key: 'purpose', header: 'Purpose' },
  createdAt: { key: 'createdAt', header: 'Uploaded', kind: 'date' },
} satisfies Record<string, Column<MerchantFile>>

export const merchantFileView = withOtherFields(
  defineView<MerchantFile>({
    name: 'merchant file',
    columns: [f.fileId, f.fileName, f.contentType, f.size, f.purpose, f.createdAt],
    detail: [
      f.fileId,
      { key: 'merchantId', header: 'Merchant' },
      f.fileName,
      f.contentType,
      { key: 'declaredContentType', header: 'Declared type' },
      f.size,
      { key: 'sha256', header: 'SHA-256' },
      f.purpose,
      { key: 'fields', header: 'Form fields', kind: 'json' },
      f.createdAt,
    ],
  }),
)

const o = {
  ownerId: { key: 'ownerId', header: 'Owner' },
  name: { key: 'name', header: 'Name', get: (r) => displayName(r) },
  role: { key: 'role', header: 'Role' },
  ownershipPercentage: {
    key: 'ownershipPercentage',
    header: 'Ownership',
    display: (value) => (typeof value === 'number' ? `${value} %` : '-'),
  },
  emailAddress: { key: 'emailAddress', header: 'Email' },
  createdAt: { key: 'createdAt', header: 'Created', kind: 'date' },
} satisfies Record<string, Column<BeneficialOwner>>

export const ownerView = defineView<BeneficialOwner>({
  name: 'beneficial owner',
  columns: [o.ownerId, o.name, o.role, o.ownershipPercentage, o.emailAddress, o.createdAt],
  detail: [
    o.ownerId,
    { key: 'merchantId', header: 'Merchant' },
    o.name,
    { key: 'dateOfBirth', header: 'Date of birth' },
    o.role,
    o.ownershipPercentage,
    o.emailAddress,
    { key: 'phoneNumber', header: 'Phone' },
    { key: 'address', header: 'Address', display: (value) => formatAddress(value as Parameters<typeof formatAddress>[0]) ?? '-' },
    o.createdAt,
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
  ],
})

/** One owner, with any field the service adds (the name parts are in the Name line). */
export const ownerDetailView = withOtherFields(ownerView, { covers: ['givenName', 'middleName', 'familyName'] })

export const industryView = defineView<Row>({
  name: 'industry',
  columns: [
    { key: 'industryCode', header: 'Code' },
    { key: 'name', header: 'Industry' },
    { key: 'b2bCommon', header: 'Common for B2B' },
  ],
})

/** Wallet-pay domains: `{merchantId, domains: [{domain, status, registeredAt}]}`. */
export const walletPayView = withOtherFields(
  defineView<Row>({
    name: 'wallet-pay domains',
    columns: [
      { key: 'merchantId', header: 'Merchant' },
      {
        key: 'domains',
        header: 'Domains',
        display: (value) =>
          Array.isArray(value) && value.length > 0
            ? value.map((d) => (isPlainObject(d) ? [d.domain, d.status ? `(${String(d.status)})` : ''].filter(Boolean).join(' ') : String(d))).join(', ')
            : '-',
      },
    ],
  }),
)
