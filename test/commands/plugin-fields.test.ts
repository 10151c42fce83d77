// The CLI sends what the service's shop plug-in sends (field notes): `orders create` with a
// discount, shipping and item skus, and `customers upsert --plugin`. Against the emulator, and on
// the wire of a recording server; bad values exit 2 with nothing sent.
import { describe, expect, it } from 'vitest'

import { type RefusalCase, itRefusesBeforeSending, useEmulator, useRecordingServer } from '../helpers/command-harness.js'

const { payfac, json } = useEmulator()

describe('plug-in fields against the emulator', () => {
  it('creates an order with a discount, shipping and an item sku, and shows them', async () => {
    const created = await json(
      'orders',
      'create',
      '--amount',
      '48.00',
      '--currency',
      'AUD',
      '--reference',
      'wc-cli-1',
      '--item',
      'Enamel mug:2:15.00:sku=MUG-ENM-01',
      '--item',
      'Tea: green:1:18.00',
      '--discount',
      '5',
      '--shipping-amount',
      '8.00',
      '--shipping-name',
      'Jo Citizen',
      '--shipping-address',
      '12 Harbour Rd|Unit 4|Fremantle|WA|6160|AU',
      '--billing-address',
      '12 Harbour Rd|Unit 4|Fremantle|WA|6160|AU',
    )
    expect(created).toMatchObject({
      discountAmount: 500,
      shipping: {
        amount: 800,
        name: 'Jo Citizen',
        address: { line1: '12 Harbour Rd', line2: 'Unit 4', city: 'Fremantle', state: 'WA', postalCode: '6160', country: 'AU' },
      },
      billing: { address: { line2: 'Unit 4' } },
      items: [
        { description: 'Enamel mug', quantity: 2, sku: 'MUG-ENM-01' },
        { description: 'Tea: green', quantity: 1 },
      ],
    })
    expect(created.items[1].sku).toBeUndefined()

    const table = await payfac('orders', 'get', created.orderId)
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toMatch(/Discount\s+5\.00 AUD/)
    expect(table.stdout).toMatch(/Shipping\s+8\.00 AUD/)
    expect(table.stdout).toMatch(/Ship-to address\s+12 Harbour Rd, Unit 4, Fremantle WA 6160, AU/)
  })

  it('registers a consumer as the plug-in does, with --plugin or with the --data envelope', async () => {
    const flags = await json(
      'customers',
      'upsert',
      '--plugin',
      '--email',
      'shopper@example.com',
      '--reference',
      '1042',
      '--given-name',
      'Jo',
      '--family-name',
      'Citizen',
    )
    expect(flags.customerId).toMatch(/^cust_/)
    const data = await json(
      'customers',
      'upsert',
      '--data',
      JSON.stringify({ RegisterPluginConsumerCustomer: { emailAddress: 'SHOPPER@example.com', givenName: 'Joanne' } }),
    )
    expect(data.customerId).toBe(flags.customerId)
    expect(await json('customers', 'get', flags.customerId)).toMatchObject({ referenceCustomerId: '1042', givenName: 'Joanne', familyName: 'Citizen' })
  })
})

describe('plug-in fields on the wire', () => {
  const recording = useRecordingServer(() => ({ status: 200, body: { customerId: 'cust_ZqCNoNcm_22WeZ-j' } }))

  it('sends RegisterPluginConsumerCustomer with exactly the plug-in’s fields', async () => {
    const result = await recording.cli(
      'customers',
      'upsert',
      '--plugin',
      '--email',
      'jo@example.com',
      '--reference',
      '7',
      '--given-name',
      'Jo',
      '--family-name',
      'Citizen',
    )
    expect(result.code, result.stderr).toBe(0)
    const [request] = recording.server.requests.splice(0)
    expect(request?.json).toEqual({
      RegisterPluginConsumerCustomer: { emailAddress: 'jo@example.com', referenceCustomerId: '7', givenName: 'Jo', familyName: 'Citizen' },
    })
  })

  it('sends discount and shipping amounts as integer minor units of the order’s currency', async () => {
    // The look-up of an order with the same reference (orders create does it first) finds none.
    recording.server.respond((r) =>
      r.method === 'GET'
        ? { status: 200, body: [] }
        : { status: 200, body: { OnlineOrder: { order: { orderId: 'ordr_ZqCNoNcm_22WeZ-j', amount: { minorCurrencyUnits: 1000, currency: 'JPY' } } } } },
    )
    const result = await recording.cli(
      'orders',
      'create',
      '--amount',
      '1000',
      '--currency',
      'JPY',
      '--reference',
      'jp-1',
      '--discount',
      '0',
      '--shipping-amount',
      '350',
    )
    expect(result.code, result.stderr).toBe(0)
    const [request] = recording.server.requests.splice(0).filter((r) => r.method === 'POST')
    expect(request?.json).toEqual({
      CreateOnlineOrder: { referenceOrderId: 'jp-1', amount: { minorCurrencyUnits: 1000, currency: 'JPY' }, discountAmount: 0, shipping: { amount: 350 } },
    })
  })

  const cases: RefusalCase[] = [
    ['a discount with too many decimals', ['orders', 'create', '--amount', '10', '--currency', 'AUD', '--reference', 'r', '--discount', '1.005'], /--discount/],
    ['a negative discount', ['orders', 'create', '--amount', '10', '--currency', 'AUD', '--reference', 'r', '--discount', '-1'], /--discount/],
    [
      'a shipping amount that is not an amount',
      ['orders', 'create', '--amount', '10', '--currency', 'AUD', '--reference', 'r', '--shipping-amount', 'eight'],
      /--shipping-amount/,
    ],
    [
      'a shipping address with four parts',
      ['orders', 'create', '--amount', '10', '--currency', 'AUD', '--reference', 'r', '--shipping-address', '1 Main St|Sydney|NSW|2000'],
      /--shipping-address/,
    ],
    [
      'a shipping address with a bad country',
      ['orders', 'create', '--amount', '10', '--currency', 'AUD', '--reference', 'r', '--shipping-address', '1 Main St|Sydney|NSW|2000|Australia'],
      /--shipping-address/,
    ],
    ['an empty shipping name', ['orders', 'create', '--amount', '10', '--currency', 'AUD', '--reference', 'r', '--shipping-name', ' '], /--shipping-name/],
    ['an item with an empty sku', ['orders', 'create', '--amount', '10', '--currency', 'AUD', '--reference', 'r', '--item', 'Mug:1:10.00:sku='], /sku/],
    [
      'a shipping flag beside --data',
      ['orders', 'create', '--data', '{"amount":{"minorCurrencyUnits":1,"currency":"AUD"}}', '--discount', '1'],
      /--data|--discount/,
    ],
    ['--plugin with --organisation', ['customers', 'upsert', '--plugin', '--organisation', '--reference', 'a'], /--plugin/],
    [
      '--plugin with a field the registration does not carry',
      ['customers', 'upsert', '--plugin', '--email', 'jo@example.com', '--phone', '+61401234567'],
      /--phone/,
    ],
    [
      '--plugin against a consumer envelope',
      ['customers', 'upsert', '--plugin', '--data', '{"UpsertConsumerCustomer":{"emailAddress":"jo@example.com"}}'],
      /conflicts/,
    ],
    ['--plugin without --email', ['customers', 'upsert', '--plugin', '--given-name', 'Jo'], /--email/],
    [
      'a plug-in registration with an unknown field',
      ['customers', 'upsert', '--data', '{"RegisterPluginConsumerCustomer":{"emailAddress":"jo@example.com","nickname":"J"}}'],
      /nickname/,
    ],
  ]

  itRefusesBeforeSending(cases, recording)
})
