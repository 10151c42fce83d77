// The emulator's fee and surcharge model (the contract shows the fields, not the rates).
//
// Service fee on every captured payment: 1.5 % of the amount (variableAmount) + 30 minor units
// (fixedAmount), plus 10 % GST on both (taxAmount); totalAmount is the sum. Each part is rounded
// to whole minor units, halves away from zero. Refunds do not return fees.
// Surcharge (paid by the customer on top of the order amount): 0 for PayTo, 1.1 % for cards.

export const FEE_VARIABLE_BASIS_POINTS = 150
export const FEE_FIXED_MINOR_UNITS = 30
export const FEE_TAX_BASIS_POINTS = 1000
export const SURCHARGE_BASIS_POINTS: Readonly<Record<string, number>> = { PayTo: 0, Card: 110 }

export interface ServiceFees {
  variableAmount: number
  fixedAmount: number
  taxAmount: number
  totalAmount: number
}

/** `amount × basisPoints / 10 000`, rounded half away from zero, in integer arithmetic. */
export function applyBasisPoints(amount: number, basisPoints: number): number {
  const product = BigInt(amount) * BigInt(basisPoints)
  const sign = product < 0n ? -1n : 1n
  const abs = product * sign
  return Number(((abs + 5_000n) / 10_000n) * sign)
}

export function serviceFees(amount: number): ServiceFees {
  const variableAmount = applyBasisPoints(amount, FEE_VARIABLE_BASIS_POINTS)
  const fixedAmount = FEE_FIXED_MINOR_UNITS
  const taxAmount = applyBasisPoints(variableAmount + fixedAmount, FEE_TAX_BASIS_POINTS)
  return { variableAmount, fixedAmount, taxAmount, totalAmount: variableAmount + fixedAmount + taxAmount }
}

export function surchargeFor(method: string, amount: number): number {
  return applyBasisPoints(amount, SURCHARGE_BASIS_POINTS[method] ?? 0)
}
