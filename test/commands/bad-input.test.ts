// Every bad input is refused before anything is sent: one row per malformed input, across every
// topic. Each row runs in this process against the emulator and asserts exit 2, nothing on
// stdout, the message on stderr, and, from the emulator's request log, that no request arrived.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { useEmulator, useTempDir } from '../helpers/command-harness.js'

const M = 'mcht_LocalMerchant001'
const ORDER = 'ordr_AAAAAAAAAAAAAAAA'
const TRAN = 'tran_AAAAAAAAAAAAAAAA'
const CUST = 'cust_AAAAAAAAAAAAAAAA'
const TOKEN = 'ptagr_AAAAAAAAAAAAAAAA'
const AUD = ['--currency', 'AUD']

type Case = [topic: string, name: string, argv: string[] | (() => string[]), message: RegExp]

const folder = useTempDir('payfac-bad-input-')
const file = (name: string, content: string | Buffer) => () => {
  const path = join(folder(), name)
  writeFileSync(path, content)
  return path
}

const cases: Case[] = [
  // Identifiers
  ['ids', 'an order id with a slash', ['orders', 'get', 'ordr_AAAAAAAA/AAAAAAA'], /only letters, digits, - and _ after "ordr_"/],
  ['ids', 'an order id with a question mark', ['orders', 'get', 'ordr_AAAAAAA?status=x'], /only letters, digits, - and _ after "ordr_"/],
  ['ids', 'an order id of another resource', ['orders', 'get', TRAN], /must start with "ordr_"/],
  ['ids', 'an order id in upper case prefix', ['orders', 'get', 'ORDR_AAAAAAAAAAAAAAAA'], /must start with "ordr_"/],
  ['ids', 'an order id with a space inside', ['orders', 'get', 'ordr_AAAAAAA AAAAAAAA'], /only letters, digits, - and _ after "ordr_"/],
  ['ids', 'a bare prefix', ['orders', 'get', 'ordr_'], /nothing after its prefix "ordr_"/],
  ['ids', 'an order id with a dot', ['orders', 'get', 'ordr_AAAA.AAAA'], /only letters, digits, - and _ after "ordr_"/],
  ['ids', 'an order id with a letter outside ASCII', ['orders', 'get', 'ordr_AAAAÄAAAA'], /only letters, digits, - and _ after "ordr_"/],
  ['ids', 'a bare prefix with spaces after it', ['orders', 'get', 'ordr_   '], /nothing after its prefix "ordr_"/],
  ['ids', 'a transaction id with a percent escape', ['transactions', 'get', 'tran_AAAAAAAA%2FAAAAA'], /only letters, digits, - and _ after "tran_"/],
  ['ids', 'a transaction id with a hash', ['transactions', 'get', 'tran_AAAAAAAA#AAAAAAA'], /only letters, digits, - and _ after "tran_"/],
  ['ids', 'a customer id of the wrong prefix', ['customers', 'get', ORDER], /must start with "cust_"/],
  ['ids', 'a --merchant-id context of the wrong prefix', ['orders', 'list', '--merchant-id', CUST], /--merchant-id must start with "mcht_"/],
  ['ids', 'a --marketplace-id context with a dot', ['orders', 'list', '--marketplace-id', 'mktp_1.2'], /--marketplace-id may hold only letters/],
  ['ids', 'a --customer-id context with a slash', ['orders', 'list', '--customer-id', 'cust_AAAAAAAAAAAA/../'], /--customer-id may hold only letters/],
  ['ids', 'a payment source id without its prefix', ['sources', 'get', 'AAAAAAAAAAAAAAAA'], /psrc_/],
  ['ids', 'a webhook id with a slash', ['webhooks', 'get', 'webhook_AAAAAA/AAAAAAAA'], /only letters, digits, - and _ after "webhook_"/],
  ['ids', 'an invoice id with a slash', ['invoices', 'get', 'inv/../orders'], /letters, digits, _ - \. and :/],
  ['ids', 'an invoice id with a question mark', ['invoices', 'get', 'inv_1?x=1'], /letters, digits, _ - \. and :/],
  ['ids', 'a payout id with a space', ['payouts', 'get', 'payout 1'], /letters, digits, _ - \. and :/],
  ['ids', 'a pay plan id with a hash', ['payplans', 'get', 'pp_1#x'], /letters, digits, _ - \. and :/],
  ['ids', 'a loan statement id with a slash', ['loans', 'statements', 'get', 'a/b'], /letters, digits, _ - \. and :/],
  ['ids', 'a service token id with a percent', ['auth', 'tokens', 'get', 'stkn%2F1'], /letters, digits, _ - \. and :/],
  ['ids', 'a card block id that is blank', ['sources', 'blocked-cards', 'update', '  ', '--data', '{}'], /must not be empty/],
  ['ids', 'a merchant file id with a slash', ['merchants', 'files', 'get', M, 'file/1'], /letters, digits, _ - \. and :/],
  ['ids', 'an agreement token of the wrong prefix', ['payto', 'status', 'undefined'], /must start with "ptagr_"/],
  ['ids', 'an agreement token with a percent', ['payto', 'status', 'ptagr_1%2F'], /only letters, digits, - and _ after "ptagr_"/],
  [
    'ids',
    'tokens create with an agreement of the wrong prefix',
    ['tokens', 'create', '--payto', '--agreement', ORDER, '--amount', '1', ...AUD],
    /--agreement must start with "ptagr_"/,
  ],
  [
    'ids',
    'sources create with a bare agreement prefix',
    ['sources', 'create', '--customer-id', CUST, '--agreement', 'ptagr_'],
    /--agreement has nothing after its prefix "ptagr_"/,
  ],
  ['ids', 'a --order-id filter of the wrong prefix', ['orders', 'list', '--order-id', TRAN], /must start with "ordr_"/],
  ['ids', 'a delivery id of the wrong prefix', ['emulator', 'replay', 'evt_AAAAAAAAAAAAAAAA'], /must start with "dlv_"/],

  // Money and currencies
  ['money', 'an amount with three decimals in AUD', ['payouts', 'request', '--amount', '12.505', ...AUD], /decimal places/],
  ['money', 'a negative amount', ['payouts', 'request', '--amount', '-5', ...AUD], /amount/i],
  ['money', 'an amount of zero for a refund', ['transactions', 'refund', TRAN, '--amount', '0', ...AUD], /amount/i],
  ['money', 'an amount with a thousands separator', ['payouts', 'request', '--amount', '1,000.00', ...AUD], /amount/i],
  ['money', 'an amount in exponent form', ['payouts', 'request', '--amount', '1e3', ...AUD], /amount/i],
  ['money', 'an amount with a currency sign', ['payouts', 'request', '--amount', '$12', ...AUD], /amount/i],
  ['money', 'an amount that is not a number', ['payouts', 'request', '--amount', 'twelve', ...AUD], /amount/i],
  ['money', 'an amount with decimals in JPY', ['payouts', 'request', '--amount', '12.5', '--currency', 'JPY'], /decimal places/],
  ['money', 'an amount past the safe integer range', ['payouts', 'request', '--amount', '99999999999999999', ...AUD], /amount|large/i],
  ['money', 'an empty amount', ['payouts', 'request', '--amount', '', ...AUD], /amount/i],
  ['money', 'an unknown currency', ['payouts', 'request', '--amount', '1', '--currency', 'ABC'], /Unknown currency/],
  ['money', 'a currency of two letters', ['payouts', 'request', '--amount', '1', '--currency', 'AU'], /currency/i],
  ['money', 'a currency with digits', ['payouts', 'request', '--amount', '1', '--currency', 'A1D'], /currency/i],
  ['money', 'an amount with --available', ['payouts', 'request', '--amount', '1', '--available'], /--available|cannot also be provided/],
  ['money', 'a token amount with three decimals', ['tokens', 'create', '--payto', '--agreement', TOKEN, '--amount', '1.001', ...AUD], /decimal places/],
  ['money', 'an order amount that is not a number', ['orders', 'create', '--amount', 'abc', ...AUD, '--reference', 'r1'], /amount/i],
  ['money', 'an order item with a bad amount', ['orders', 'create', '--amount', '10', ...AUD, '--reference', 'r1', '--item', 'Tea:1:x'], /--item amount/],
  [
    'money',
    'order items adding up to more than the order',
    ['orders', 'create', '--amount', '10', ...AUD, '--reference', 'r1', '--item', 'Tea:2:6.00'],
    /add up to 1200 minor units, more than/,
  ],
  ['money', 'an order item of quantity zero', ['orders', 'create', '--amount', '10', ...AUD, '--reference', 'r1', '--item', 'Tea:0:1.00'], /quantity/],
  [
    'money',
    'an order item of fractional quantity given as 1.5',
    ['orders', 'create', '--amount', '10', ...AUD, '--reference', 'r1', '--item', 'Tea:1.5:1.00'],
    /quantity/,
  ],
  ['money', 'an order item without its parts', ['orders', 'create', '--amount', '10', ...AUD, '--reference', 'r1', '--item', 'Tea'], /--item takes/],
  [
    'money',
    'a PayTo agreement in USD',
    ['payto', 'agree', '--name', 'Ada', '--bban', '062-000 12345678', '--amount', '10', '--currency', 'USD', '--purpose', 'Retail'],
    /AUD only/,
  ],
  ['money', 'a refund amount with too many decimals', ['transactions', 'refund', TRAN, '--amount', '1.234', ...AUD], /decimal places/],
  [
    'money',
    'a surcharge quote with an unknown currency',
    ['tokens', 'surcharge-quote', M, '--amount', '1', '--currency', 'XYZ', '--payment-method', 'PayTo'],
    /Unknown currency/,
  ],

  // Dates and ranges
  [
    'dates',
    'an impossible day',
    ['orders', 'list', '--created-after', '2026-02-30'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'the 31st of April',
    ['orders', 'list', '--created-after', '2026-04-31'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'a 29th of February outside a leap year',
    ['orders', 'list', '--created-after', '2027-02-29'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  ['dates', 'month 13', ['orders', 'list', '--created-after', '2026-13-01'], /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/],
  ['dates', 'month 00', ['orders', 'list', '--created-after', '2026-00-10'], /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/],
  ['dates', 'day 00', ['orders', 'list', '--created-after', '2026-01-00'], /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/],
  [
    'dates',
    'a day-first date',
    ['orders', 'list', '--created-after', '30/11/2026'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'a date without dashes',
    ['orders', 'list', '--created-after', '20261130'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'a timestamp without a zone',
    ['orders', 'list', '--created-after', '2026-11-01T10:00:00'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'hour 24',
    ['orders', 'list', '--created-after', '2026-11-01T24:00:00Z'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'minute 60',
    ['orders', 'list', '--created-after', '2026-11-01T10:60:00Z'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'a word instead of a date',
    ['orders', 'list', '--created-before', 'yesterday'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  ['dates', 'a reversed created range', ['orders', 'list', '--created-after', '2026-12-01', '--created-before', '2026-11-01'], /is not before/],
  ['dates', 'an empty created range', ['transactions', 'list', '--created-after', '2026-11-01', '--created-before', '2026-11-01'], /is not before/],
  [
    'dates',
    'a reversed range on customers',
    ['customers', 'list', '--created-after', '2026-11-02T00:00:00Z', '--created-before', '2026-11-01T00:00:00Z'],
    /is not before/,
  ],
  [
    'dates',
    'a settlement --from on an impossible day',
    ['settlement', 'list', '--currency', 'AUD', '--from', '2026-02-30', '--to', '2026-03-01'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  ['dates', 'a reversed settlement range', ['settlement', 'list', '--currency', 'AUD', '--from', '2026-12-01', '--to', '2026-11-01'], /is not before/],
  ['dates', 'a reversed settlement report range', ['settlement', 'report', '--currency', 'AUD', '--from', '2026-12-01', '--to', '2026-11-01'], /is not before/],
  [
    'dates',
    'a service token expiry on an impossible day',
    ['auth', 'tokens', 'create', '--owner', M, '--expires-at', '2026-06-31'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'a refunds filter with a bad date',
    ['refunds', 'list', '--created-after', '2026-1-1'],
    /must be a date YYYY-MM-DD|is not a day of the calendar|is not a time of day/,
  ],
  [
    'dates',
    'an owner born on an impossible day',
    ['merchants', 'owners', 'create', M, '--given-name', 'Ada', '--family-name', 'L', '--date-of-birth', '1990-02-30', '--role', 'Director'],
    /date/i,
  ],

  // Enumerations
  ['enums', 'an unknown order status', ['orders', 'list', '--status', 'bogus'], /Expected --status=bogus to be one of|--status/],
  ['enums', 'an unknown transaction status', ['transactions', 'list', '--status', 'bogus'], /--status/],
  ['enums', 'an unknown webhook status', ['webhooks', 'list', '--status', 'Paused'], /--status/],
  ['enums', 'an unknown sort field on orders', ['orders', 'list', '--sort', 'bogus'], /does not sort by "bogus"/],
  ['enums', 'an unknown descending sort field on transactions', ['transactions', 'list', '--sort', '-colour'], /does not sort by "colour"/],
  ['enums', 'a sort list with one unknown field', ['customers', 'list', '--sort', 'createdAt,shoeSize'], /does not sort by "shoeSize"/],
  ['enums', 'a sort that is not a field name', ['orders', 'list', '--sort', 'created at'], /--sort takes/],
  ['enums', 'a sort with an empty field', ['orders', 'list', '--sort', 'createdAt,,amount'], /--sort takes/],
  ['enums', 'an unknown simulation action', ['simulate', 'NoSuchAction'], /Unknown simulation action "NoSuchAction"/],
  ['enums', 'a simulation action that is not a name', ['simulate', 'advance clock'], /not an action name/],
  ['enums', 'an unknown HTTP method for api', ['api', 'FETCH', '/orders'], /METHOD must be one of/],
  ['enums', 'an unknown pay method', ['orders', 'pay', ORDER, '--method', 'cash'], /--method/],
  [
    'enums',
    'an unknown usage scope',
    ['sources', 'create', '--customer-id', CUST, '--agreement', TOKEN, '--usage-scope', 'ScopeEveryone'],
    /ScopeOrganisation/,
  ],
  ['enums', 'an unknown owner role', ['merchants', 'owners', 'create', M, '--given-name', 'Ada', '--family-name', 'L', '--role', 'Chief'], /--role/],
  ['enums', 'an unknown alias type', ['payto', 'alias', '+61400000000', '--type', 'Fax'], /--type/],
  ['enums', 'an unknown statement format', ['loans', 'statements', 'download', 'ls_1', '--format', 'docx'], /--format/],
  ['enums', 'an unknown surcharge payment method', ['tokens', 'surcharge-quote', M, '--amount', '1', ...AUD, '--payment-method', 'Cash'], /--payment-method/],
  [
    'enums',
    'an event name that is not PascalCase',
    ['webhooks', 'create', '--url', 'https://hooks.example.com/x', '--events', 'transaction_paid'],
    /not an event name/,
  ],
  ['enums', 'an unknown date field of loan entries', ['loans', 'entries', 'report', '--loan', 'loan_1', '--date-field', 'paid'], /date-field/],

  // E-mails and phones
  ['contacts', 'an e-mail without @', ['orders', 'create', '--amount', '1', ...AUD, '--reference', 'r1', '--email', 'ada.example.com'], /e-mail/],
  ['contacts', 'an e-mail without a domain dot', ['orders', 'create', '--amount', '1', ...AUD, '--reference', 'r1', '--email', 'ada@example'], /e-mail/],
  ['contacts', 'an e-mail with a space', ['customers', 'upsert', '--email', 'ada @example.com'], /e-mail/],
  ['contacts', 'two @ signs', ['customers', 'upsert', '--email', 'ada@@example.com'], /e-mail/],
  ['contacts', 'a phone without a plus', ['orders', 'create', '--amount', '1', ...AUD, '--reference', 'r1', '--phone', '0401234567'], /E\.164/],
  ['contacts', 'a phone with letters', ['customers', 'upsert', '--email', 'a@example.com', '--phone', '+61 4O1 234 567'], /E\.164/],
  ['contacts', 'a phone too short', ['customers', 'upsert', '--email', 'a@example.com', '--phone', '+6140'], /E\.164/],
  ['contacts', 'a phone too long', ['customers', 'upsert', '--email', 'a@example.com', '--phone', '+6140123456789012'], /E\.164/],
  ['contacts', 'a phone starting +0', ['customers', 'upsert', '--email', 'a@example.com', '--phone', '+0401234567'], /E\.164/],
  ['contacts', 'a PayTo phone alias not in E.164', ['payto', 'agree', '--name', 'Ada', '--phone', '0401', '--open', '--purpose', 'Retail'], /E\.164/],
  ['contacts', 'a PayTo e-mail alias without @', ['payto', 'agree', '--name', 'Ada', '--email', 'ada', '--open', '--purpose', 'Retail'], /e-mail/],
  ['contacts', 'a merchant e-mail without @', ['merchants', 'create', '--name', 'Shop', '--email', 'shop', '--industry', 'Retail'], /e-mail/],

  // Bank accounts and business numbers
  [
    'bank',
    'a BSB of five digits',
    ['merchants', 'bank-accounts', 'add', M, '--bsb', '06200', '--account-number', '12345678', '--account-name', 'Shop'],
    /BSB is six digits/,
  ],
  [
    'bank',
    'a BSB with letters',
    ['merchants', 'bank-accounts', 'add', M, '--bsb', '062-00A', '--account-number', '12345678', '--account-name', 'Shop'],
    /BSB is six digits/,
  ],
  [
    'bank',
    'an account number of four digits',
    ['merchants', 'bank-accounts', 'add', M, '--bsb', '062-000', '--account-number', '1234', '--account-name', 'Shop'],
    /5 to 9 digits/,
  ],
  [
    'bank',
    'an account number of ten digits',
    ['merchants', 'bank-accounts', 'add', M, '--bsb', '062-000', '--account-number', '1234567890', '--account-name', 'Shop'],
    /5 to 9 digits/,
  ],
  [
    'bank',
    'an account number with letters',
    ['merchants', 'bank-accounts', 'add', M, '--bsb', '062-000', '--account-number', '12345X78', '--account-name', 'Shop'],
    /5 to 9 digits/,
  ],
  [
    'bank',
    'a BBAN without an account number',
    ['payto', 'agree', '--name', 'Ada', '--bban', '062-000', '--open', '--purpose', 'Retail'],
    /BSB and an account number/,
  ],
  ['bank', 'a BBAN with a short BSB', ['payto', 'agree', '--name', 'Ada', '--bban', '06-000 12345678', '--open', '--purpose', 'Retail'], /BSB/],
  [
    'bank',
    'a BBAN with a long account',
    ['payto', 'agree', '--name', 'Ada', '--bban', '062-000 1234567890', '--open', '--purpose', 'Retail'],
    /5 to 9 digits|BSB and an account number/,
  ],
  ['bank', 'an ABN failing its check sum', ['payto', 'agree', '--name', 'Ada', '--abn', '51824753557', '--open', '--purpose', 'Retail'], /not a valid ABN/],
  ['bank', 'an ABN of ten digits', ['payto', 'agree', '--name', 'Ada', '--abn', '5182475355', '--open', '--purpose', 'Retail'], /not a valid ABN/],
  ['bank', 'an ACN failing its check digit', ['payto', 'agree', '--name', 'Ada', '--acn', '004085617', '--open', '--purpose', 'Retail'], /not a valid ACN/],
  ['bank', 'an ACN with letters', ['payto', 'agree', '--name', 'Ada', '--acn', '00408561A', '--open', '--purpose', 'Retail'], /not a valid ACN/],
  [
    'bank',
    'a merchant business number failing its check',
    ['merchants', 'create', '--name', 'Shop', '--business-number', '12345678901', '--industry', 'Retail'],
    /ABN|business number/,
  ],
  [
    'bank',
    'two account identifiers at once',
    ['payto', 'agree', '--name', 'Ada', '--bban', '062-000 12345678', '--phone', '+61401234567', '--open', '--purpose', 'Retail'],
    /one|cannot also be provided/,
  ],

  // URLs
  ['urls', 'a base URL that is not a URL', ['orders', 'list', '--base-url', 'not-a-url'], /--base-url must be an http/],
  ['urls', 'a base URL of another scheme', ['orders', 'list', '--base-url', 'ftp://files.example.com'], /--base-url must be an http/],
  ['urls', 'a base URL with a password', ['orders', 'list', '--base-url', 'https://ann:pw@api.example.com'], /must not hold a user name or password/],
  ['urls', 'a base URL with a user name only', ['orders', 'list', '--base-url', 'https://ann@api.example.com'], /must not hold a user name or password/],
  ['urls', 'a webhook URL over http to a remote host', ['webhooks', 'create', '--url', 'http://hooks.example.com/x', '--events', 'TransactionPaid'], /https/],
  ['urls', 'a webhook URL that is not a URL', ['webhooks', 'create', '--url', 'hooks', '--events', 'TransactionPaid'], /URL|https/],
  ['urls', 'a webhook forward target that is not a URL', ['webhooks', 'listen', '--forward-to', 'nowhere'], /forward-to/],
  ['urls', 'an api path without a leading slash', ['api', 'GET', 'orders'], /must start with \//],
  ['urls', 'a merchant website that is not a URL', ['merchants', 'create', '--name', 'Shop', '--website', 'shop', '--industry', 'Retail'], /website|URL/i],

  // --data JSON
  ['data', 'invalid JSON', ['sources', 'create', '--customer-id', CUST, '--data', '{"a":'], /not valid JSON/],
  ['data', 'a trailing comma', ['customers', 'kyc', '--customer', CUST, '--data', '{"a":1,}'], /not valid JSON/],
  ['data', 'single quotes', ['payouts', 'request', '--data', "{'amount':1}"], /not valid JSON/],
  ['data', 'an array where an object is expected', ['simulate', 'AdvanceClock', '--data', '[1,2]'], /must be a JSON object/],
  ['data', 'a string where an object is expected', ['simulate', 'AdvanceClock', '--data', '"x"'], /must be a JSON object/],
  ['data', 'null where an object is expected', ['simulate', 'AdvanceClock', '--data', 'null'], /must be a JSON object/],
  ['data', 'a file that does not exist', ['orders', 'create', '--data', '@/nonexistent/body.json'], /cannot read/],
  ['data', 'a file that is not JSON', () => ['orders', 'create', '--data', `@${file('body.txt', 'not json')()}`], /not valid JSON/],
  [
    'data',
    'a previous-generation field name',
    ['orders', 'create', '--data', '{"CreateOnlineOrder":{"internalOrderId":"x","amount":{"minorCurrencyUnits":1,"currency":"AUD"}}}'],
    /previous interface generation/,
  ],
  ['data', 'a GET with a body', ['api', 'GET', '/orders', '--data', '{"status":"paid"}'], /--data cannot be sent with GET/],
  [
    'data',
    'two action envelopes at once',
    ['sources', 'blocked-cards', 'update', 'cblk_A', '--data', '{"UnblockCard":{},"BlockCard":{}}'],
    /one action envelope/,
  ],
  ['data', 'a header without a colon', ['api', 'GET', '/orders', '-H', 'Merchant-Id'], /-H takes/],
  ['data', 'metadata without =', ['orders', 'create', '--amount', '1', ...AUD, '--reference', 'r1', '--metadata', 'channel'], /--metadata takes key=value/],
  [
    'data',
    'metadata with an empty key',
    ['orders', 'create', '--amount', '1', ...AUD, '--reference', 'r1', '--metadata', '=web'],
    /--metadata takes key=value/,
  ],

  // Upload files
  [
    'files',
    'an upload that does not exist',
    ['merchants', 'files', 'upload', M, '/nonexistent/scan.png', '--purpose', 'IdentityDocument'],
    /cannot read|does not exist|no such/i,
  ],
  [
    'files',
    'an upload of the wrong type',
    () => ['merchants', 'files', 'upload', M, file('scan.gif', Buffer.from('GIF89a....'))(), '--purpose', 'IdentityDocument'],
    /JPEG, PNG or PDF/,
  ],
  ['files', 'an empty upload', () => ['merchants', 'files', 'upload', M, file('empty.png', Buffer.alloc(0))(), '--purpose', 'IdentityDocument'], /empty/],
  [
    'files',
    'an upload over 10 MB',
    () => [
      'merchants',
      'files',
      'upload',
      M,
      file('big.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(10 * 1024 * 1024)]))(),
      '--purpose',
      'IdentityDocument',
    ],
    /10 MB/,
  ],
  ['files', 'an --out folder that does not exist', ['invoices', 'pdf', 'inv_1', '--out', '/nonexistent/dir/invoice.pdf'], /does not exist/],
  [
    'files',
    'an --out that is a folder',
    () => ['settlement', 'report', '--currency', 'AUD', '--from', '2026-11-01', '--to', '2026-12-01', '--out', folder()],
    /is a folder/,
  ],
  [
    'files',
    'an --out under a file',
    () => ['loans', 'statements', 'download', 'ls_1', '--out', join(file('plain.txt', 'x')(), 'statement.zip')],
    /is not a folder/,
  ],

  // Limits and intervals
  ['limits', 'a limit of zero', ['orders', 'list', '--limit', '0'], /--limit/],
  ['limits', 'a limit over 500', ['orders', 'list', '--limit', '501'], /--limit/],
  ['limits', 'a negative limit', ['transactions', 'list', '--limit', '-1'], /--limit/],
  ['limits', 'a limit that is not a number', ['customers', 'list', '--limit', 'ten'], /--limit/],
  ['limits', 'a page of zero', ['orders', 'list', '--page', '0'], /--page/],
  ['limits', 'a max of zero', ['orders', 'list', '--max', '0'], /--max/],
  ['limits', 'an interval of zero', ['payto', 'status', TOKEN, '--poll', '--interval', '0'], /--interval must be at least 100ms/],
  ['limits', 'an interval of 5ms', ['payto', 'status', TOKEN, '--poll', '--interval', '5ms'], /--interval must be at least 100ms/],
  ['limits', 'an interval that is not a duration', ['payto', 'status', TOKEN, '--poll', '--interval', 'soon'], /--interval takes a duration/],
  ['limits', 'a timeout that is not a duration', ['payto', 'status', TOKEN, '--poll', '--timeout', '10 minutes'], /--timeout takes a duration/],
  ['limits', 'a negative advance of the clock', ['simulate', 'AdvanceClock', '--seconds', '-5'], /--seconds/],
  [
    'limits',
    'a timestamp tolerance that is not a duration',
    ['webhooks', 'verify', '--secret', 'whsec_x', '--signature', 't=1,v1=ab', '--timestamp-tolerance', 'forever'],
    /--timestamp-tolerance/,
  ],
  ['limits', 'a port over 65535', ['webhooks', 'listen', '--port', '70000'], /--port/],

  // Conflicting flags
  [
    'conflicts',
    'an agreement to save and a new one to send at once',
    ['payto', 'save', '--agreement', TOKEN, '--name', 'X', '--customer', CUST],
    /--agreement|cannot also be provided|either/,
  ],
  ['conflicts', '--page with --all', ['orders', 'list', '--page', '2', '--all'], /cannot also be provided|--all|--page/],
  [
    'conflicts',
    'a one-off and an open agreement at once',
    ['payto', 'agree', '--name', 'Ada', '--bban', '062-000 12345678', '--amount', '1', ...AUD, '--open', '--purpose', 'Retail'],
    /use either --open or --amount, not both/,
  ],
  ['conflicts', 'neither one-off nor open', ['payto', 'agree', '--name', 'Ada', '--bban', '062-000 12345678', '--purpose', 'Retail'], /exactly one/],
  [
    'conflicts',
    'two token kinds at once',
    ['tokens', 'create', '--payto', '--agreement', TOKEN, '--saved-source', 'psrc_AAAAAAAAAAAAAAAA', '--amount', '1', ...AUD],
    /got --payto and --saved-source/,
  ],
  [
    'conflicts',
    '--agreement without --payto',
    ['tokens', 'create', '--saved-source', 'psrc_AAAAAAAAAAAAAAAA', '--agreement', TOKEN, '--amount', '1', ...AUD],
    /--agreement goes with --payto/,
  ],
  [
    'conflicts',
    '--data together with --agreement',
    ['sources', 'create', '--customer-id', CUST, '--agreement', TOKEN, '--data', '{}'],
    /--data|cannot also be provided/,
  ],
  [
    'conflicts',
    'an order without its amount, currency and reference',
    ['orders', 'create', '--description', 'Tea'],
    /needs --amount, --currency and --reference/,
  ],
  ['conflicts', 'settlement without payout or range', ['settlement', 'list', '--currency', 'AUD'], /--last or as --from and --to \(missing a range\)/],
  ['conflicts', '--seconds on another action', ['simulate', 'SettlePayout', '--seconds', '5'], /--seconds applies to AdvanceClock only/],
  ['conflicts', 'webhooks verify with the secret on stdin', ['webhooks', 'verify', '--secret', '-', '--signature', 't=1,v1=ab'], /stdin carries the body/],
]

/** The sequence number of the last request the emulator logged (0 when none). */
async function lastLogged(url: string): Promise<number> {
  const log = (await (await fetch(`${url}/__emulator/requests?limit=1`)).json()) as Array<{ seq: number }>
  return log.at(-1)?.seq ?? 0
}

describe('bad input is refused before anything is sent (exit 2)', () => {
  const { payfac, ctx } = useEmulator()

  it('covers at least 150 malformed inputs across every topic', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150)
    const topics = new Set(cases.map(([topic]) => topic))
    for (const topic of ['ids', 'money', 'dates', 'enums', 'contacts', 'bank', 'urls', 'data', 'files', 'limits', 'conflicts']) expect(topics).toContain(topic)
  })

  it.each(cases)('%s: %s', async (_topic, _name, argv, message) => {
    const before = await lastLogged(ctx.emulator.url)
    const result = await payfac(...(typeof argv === 'function' ? argv() : argv))
    expect(result.code, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(message)
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(await lastLogged(ctx.emulator.url)).toBe(before)
  })
})

describe('unknown webhook event names are sent, with a warning naming the known events', () => {
  const { payfac, ctx } = useEmulator()
  let before = 0
  beforeAll(async () => {
    before = await lastLogged(ctx.emulator.url)
  })
  afterAll(() => undefined)

  it('creates the subscription and warns', async () => {
    const result = await payfac(
      'webhooks',
      'create',
      '--url',
      'https://hooks.example.com/x',
      '--events',
      'NoSuchEvent',
      '--events',
      'TransactionPaid',
      '--json',
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/Warning: "NoSuchEvent" is not an event payfac knows; sending as given\. Known events: .*TransactionPaid/)
    expect(JSON.parse(result.stdout).events).toEqual(['NoSuchEvent', 'TransactionPaid'])
    expect(await lastLogged(ctx.emulator.url)).toBeGreaterThan(before)
  })
})
