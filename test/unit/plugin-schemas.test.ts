// The client's schemas and the plug-in's fields (field notes, "What real clients send"): requests
// take the real types; responses read both the real types and the Money form.
import { describe, expect, it } from 'vitest'
import { ACTIONS } from '../../src/client/schemas/actions.js'
import { CreateOnlineOrder, Order } from '../../src/client/schemas/orders.js'

const aud = (minorCurrencyUnits: number) => ({ minorCurrencyUnits, currency: 'AUD' })

describe('order schemas and the plug-in’s fields', () => {
  it('takes discountAmount and shipping.amount as integer minor units, and empty shipping strings', () => {
    const body = {
      amount: aud(2500),
      discountAmount: 0,
      shipping: { amount: 0, name: '', address: { line1: '', line2: '', city: '', state: '', postalCode: '', country: '' } },
      billing: { address: { line1: '3 Quay St', line2: '', city: 'Brisbane', postalCode: '4000', country: 'AU' } },
      items: [{ amount: aud(2500), description: 'Gift card', quantity: 1, sku: 'GIFT-25', imageUrl: '' }],
    }
    expect(CreateOnlineOrder.safeParse(body).success).toBe(true)
    expect(CreateOnlineOrder.safeParse({ ...body, discountAmount: aud(500) }).success).toBe(false)
    expect(CreateOnlineOrder.safeParse({ ...body, discountAmount: 5.5 }).success).toBe(false)
    expect(CreateOnlineOrder.safeParse({ ...body, shipping: { amount: -1 } }).success).toBe(false)
    expect(CreateOnlineOrder.safeParse({ ...body, shipping: { address: { country: 'Australia' } } }).success).toBe(false)
  })

  it('reads an order whose discount and shipping are integers or Money', () => {
    const base = { orderId: 'ordr_ZqCNoNcm_22WeZ-j', amount: aud(4800) }
    const integers = Order.parse({ ...base, discountAmount: 500, shipping: { amount: 800, address: { line1: '1 Main St', line2: 'Unit 4' }, name: 'Jo' } })
    expect(integers.discountAmount).toBe(500)
    expect(integers.shipping?.address?.line2).toBe('Unit 4')
    const money = Order.parse({ ...base, discountAmount: aud(500), shipping: { amount: aud(800) } })
    expect(money.discountAmount).toEqual(aud(500))
    expect(Order.parse({ ...base, discountAmount: null, shipping: null }).shipping).toBeNull()
  })

  it('knows RegisterPluginConsumerCustomer as an action of POST /customers', () => {
    const schema = ACTIONS['POST /customers'].RegisterPluginConsumerCustomer
    expect(schema.safeParse({ referenceCustomerId: '1042', givenName: 'Jo', familyName: 'Citizen', emailAddress: 'jo@example.com' }).success).toBe(true)
    expect(schema.safeParse({ givenName: 'Jo' }).success).toBe(false)
  })
})
