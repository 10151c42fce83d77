// Digital cards: the request and the card, shapes the contract does not show (loose).
import type { z } from 'zod'
import { AnyObject } from './common.js'

export const DigitalCardRequest = AnyObject
export const DigitalCard = AnyObject
export type DigitalCard = z.infer<typeof DigitalCard>
