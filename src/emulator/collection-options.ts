// What a collection (collection.ts) is made with and what it tells: its options, index helpers,
// and the watcher interface for what is derived from its records as they are written.
import type { IndexKey } from './slots.js'

export interface CollectionOptions<T> {
  /** The record's time (default: its `createdAt`): the lists' default order and time ranges. */
  time?: (record: T) => string
  /** Equality indexes by name. */
  indexes?: Record<string, (record: T) => IndexKey>
  /** How `toJSON()` writes the collection: an object by id (default) or an array in creation order (then `id` is needed to read it back). */
  json?: 'object' | 'array'
  /** The id of a record (needed by `load()` for a collection written as an array). */
  id?: (record: T) => string
}

/** Index helpers: a record's merchant, and a text key without case. */
export const byMerchantId = { merchantId: (record: { merchantId: string }) => record.merchantId }
export const lowercase = (text: string | null | undefined): string | undefined => text?.toLowerCase()

/**
 * Told of a collection's writes, to keep something derived from its records up to date: each new
 * record as it is added (in creation order), and that some record was removed, replaced or changed
 * in place (then what was derived is to be derived again).
 */
export interface CollectionWatcher<T> {
  added(record: T): void
  rewritten(): void
}
