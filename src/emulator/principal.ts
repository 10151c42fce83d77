// Who a request comes from and whom it acts for: types only, shared by the credential check
// (auth.ts) and the route and handler types (route.ts), so that neither imports the other.

export type PrincipalKind = 'marketplace' | 'merchant' | 'public' | 'customer' | 'payByLink'

export type Principal =
  | { kind: 'marketplace'; marketplaceId: string; via: 'apiKey' | 'serviceToken' }
  | { kind: 'merchant'; merchantId: string; via: 'secretKey' | 'serviceToken' }
  | { kind: 'public'; merchantId: string }
  | { kind: 'customer'; merchantId: string; customerId: string; customerDelegateId: string | null }
  /** The Pay By Link token of a pay-by-link order: acts for the order's merchant, on sign-in only. */
  | { kind: 'payByLink'; merchantId: string; orderId: string }

/** Who the request acts for, after the credential and the context headers. */
export interface Scope {
  /** The marketplace of the caller (a marketplace credential), or of the merchant acted for. */
  marketplaceId: string | null
  /** The merchant acted for: the caller's own, or the one named by `Merchant-Id`. */
  merchantId: string | null
  /** The customer acted for: the signed-in customer, or the one named by `Customer-Id`. */
  customerId: string | null
  /** The delegate acted for: the signed-in delegate, or `Customer-Delegate-User-Id`. */
  customerDelegateId: string | null
}
