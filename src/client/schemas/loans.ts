// Loans, their statements and statement entries: shapes the contract does not show (loose).
import type { z } from 'zod'
import { AnyObject } from './common.js'

export const Loan = AnyObject
export type Loan = z.infer<typeof Loan>
export const LoanStatement = AnyObject
export type LoanStatement = z.infer<typeof LoanStatement>
export const LoanStatementEntry = AnyObject
export type LoanStatementEntry = z.infer<typeof LoanStatementEntry>
