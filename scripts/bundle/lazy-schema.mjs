// A zod schema built on first use, for the CLI bundle (see scripts/bundle/schemas-plugin.mjs).
// The stand-in forwards every operation to the schema, built once by `build` when anything is
// first read from it (parsing, nesting it in another schema, `.optional()`, `instanceof` …).
export function lazySchema(build) {
  let schema
  const real = () => (schema ??= build())
  return new Proxy(Object.create(null), {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(real(), key)
      // The stand-in's own target has no such property, so the descriptor must say it may change.
      return found && { ...found, configurable: true }
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  })
}
