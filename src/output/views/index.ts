// One view per resource group. To add one, copy orders.ts: a typed defineView() with list
// `columns` (what a person needs first) and `detail` (the single-record table).
export { GENERIC_LIST_COLUMNS, genericView, rawView } from './generic.js'
export { formatAddress, orderView } from './orders.js'
export { profileView, type ProfileRow } from './profiles.js'
export { payOrderCompleteView, payResultView, transactionView } from './transactions.js'
