// Sign-in results and service tokens (contract: Resources → Sign-in result, Service token).
import type { ServiceToken, SignInResult } from '../../client/schemas/auth.js'
import { isMoney, isPlainObject } from '../flatten.js'
import { defineView, type Column, type View } from '../view.js'

/**
 * The single-record table of a record whose fields the contract does not show: the view's own
 * detail first, then every other top-level field of the record, so nothing the service sent is
 * hidden. List tables keep the view's fixed columns. Used by the customer and merchant views too.
 */
export function withOtherFields<T>(view: View<T>, options: { covers?: readonly string[] } = {}): View<T> {
  const detail = view.detail ?? view.columns
  const covered = new Set([...detail.map((c) => c.key.split('.')[0] as string), ...(options.covers ?? [])])
  return {
    ...view,
    fromSample: (sample) => {
      const others: Column<T>[] = isPlainObject(sample)
        ? Object.entries(sample)
            .filter(([key]) => !covered.has(key))
            .map(([key, value]) => (isMoney(value) ? { key, header: key, kind: 'money' as const } : { key, header: key }))
        : []
      return { columns: view.columns, detail: [...detail, ...others] }
    },
  }
}

/** The sign-in answer. `customToken` is a credential: it is shown here, its purpose, and nowhere else. */
export const signInView = defineView<SignInResult>({
  name: 'sign-in',
  columns: [
    { key: 'customerId', header: 'Customer' },
    { key: 'customerDelegateId', header: 'Delegate' },
    { key: 'customToken', header: 'Custom token' },
  ],
})

const owner = (t: ServiceToken) => t.merchantId ?? t.marketplaceId

const st = {
  id: { key: 'serviceTokenId', header: 'Service token' },
  ownerType: { key: 'ownerType', header: 'Owner type' },
  owner: { key: 'owner', header: 'Owner', get: owner },
  status: { key: 'status', header: 'Status' },
  expired: { key: 'expired', header: 'Expired' },
  expiresAt: { key: 'expiresAt', header: 'Expires', kind: 'date' },
  description: { key: 'description', header: 'Description' },
  createdAt: { key: 'createdAt', header: 'Created', kind: 'date' },
} satisfies Record<string, Column<ServiceToken>>

export const serviceTokenView = defineView<ServiceToken>({
  name: 'service token',
  columns: [st.id, st.ownerType, st.owner, st.status, st.expired, st.expiresAt, st.description],
  detail: [
    st.id,
    { key: 'tokenHint', header: 'Token hint' },
    st.ownerType,
    { key: 'merchantId', header: 'Merchant' },
    { key: 'marketplaceId', header: 'Marketplace' },
    st.description,
    st.status,
    st.expired,
    st.createdAt,
    { key: 'updatedAt', header: 'Updated', kind: 'date' },
    st.expiresAt,
    { key: 'revokedAt', header: 'Revoked', kind: 'date' },
  ],
})

/** One service token, with any field the service adds. */
export const serviceTokenDetailView = withOtherFields(serviceTokenView, { covers: ['owner'] })

/** A new service token: the credential itself, present only in the answer that creates it, comes first. */
export const createdServiceTokenView = withOtherFields(
  defineView<ServiceToken>({
    ...serviceTokenView,
    detail: [st.id, { key: 'token', header: 'Token (shown once)' }, ...(serviceTokenView.detail ?? []).slice(1)],
  }),
  { covers: ['owner'] },
)
