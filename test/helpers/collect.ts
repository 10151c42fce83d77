/** Every item an async iterable gives before it ends or fails, and the error it failed with (undefined when it ended). */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<{ items: T[]; error: unknown }> {
  const items: T[] = []
  try {
    for await (const item of iterable) items.push(item)
    return { items, error: undefined }
  } catch (error) {
    return { items, error }
  }
}
