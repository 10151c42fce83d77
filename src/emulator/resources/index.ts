// Every route of the emulator, by resource group. A new group is a file in this folder that
// exports `routes`; add it here. Order does not matter: the router picks the most specific
// template (router.ts).
import type { Route } from '../route.js'
import { routes as auth } from './auth.js'
import { routes as customers } from './customers.js'
import { routes as issuer } from './issuer.js'
import { routes as loans } from './loans.js'
import { routes as marketplaces } from './marketplaces.js'
import { routes as merchantFiles } from './merchant-files.js'
import { routes as merchantOwners } from './merchant-owners.js'
import { routes as merchants } from './merchants.js'
import { routes as disputes } from './disputes.js'
import { routes as invoices } from './invoices.js'
import { routes as orders } from './orders.js'
import { routes as ordersPay } from './orders-pay.js'
import { routes as payouts } from './payouts.js'
import { routes as payplans } from './payplans.js'
import { routes as payto } from './payto.js'
import { routes as refunds } from './refunds.js'
import { routes as settlement } from './settlement.js'
import { routes as simulation } from './simulation.js'
import { routes as sources } from './sources.js'
import { routes as tokens } from './tokens.js'
import { routes as transactions } from './transactions.js'
import { routes as webhooks } from './webhooks.js'

export const ALL_ROUTES: readonly Route[] = [
  ...auth,
  ...customers,
  ...merchants,
  ...merchantFiles,
  ...merchantOwners,
  ...sources,
  ...tokens,
  ...payplans,
  ...orders,
  ...ordersPay,
  ...transactions,
  ...payouts,
  ...invoices,
  ...settlement,
  ...disputes,
  ...refunds,
  ...marketplaces,
  ...webhooks,
  ...loans,
  ...issuer,
  ...payto,
  ...simulation,
]
