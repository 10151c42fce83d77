// The set-up command tests share, registered as vitest hooks where it is called (a file's top
// level, or a describe):
//
//   const { ctx, payfac, json, marketplace } = useEmulator()      // an emulator on port 0
//   const { cli, server } = useRecordingServer(answer)             // a server that records requests
//   itRefusesBeforeSending(cases, recording)                       // exit 2, nothing sent
//
// What they return can be destructured at once: each part reads the running emulator or server
// when it is used, inside a test or a hook.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'

import { commandEnv, type EmulatorEnv, startEmulatorEnv } from './emulator-env.js'
import { type RecordedRequest, type RecordingServer, type Responder, startRecordingServer } from './recording-server.js'
import { type CommandResult, runCommand } from './run-command.js'
import { makeTempConfigDir, type TempConfigDir } from './tmp-config.js'

export type Env = Record<string, string | undefined>

/** payfac with the given arguments, in this process. */
export type Payfac = (...argv: string[]) => Promise<CommandResult>

/** payfac with the given arguments and --json: expects exit 0 and returns the parsed stdout. */
export type Json = (...argv: string[]) => Promise<any>

export interface Runners {
  payfac: Payfac
  json: Json
}

/** `payfac` and `json` for the environment `env()` gives at the time of each call. */
export function runnersFor(env: () => Env): Runners {
  const payfac: Payfac = (...argv) => runCommand(argv, { env: env() })
  const json: Json = async (...argv) => {
    const result = await payfac(...argv, '--json')
    expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0)
    return JSON.parse(result.stdout)
  }
  return { payfac, json }
}

/** Something started in beforeAll: its getter throws when read outside the tests and hooks. */
function started<T>(what: string) {
  let value: T | undefined
  return {
    set: (next: T | undefined) => void (value = next),
    get: (): T => {
      if (value === undefined) throw new Error(`${what} runs from beforeAll to afterAll: use it inside a test or a hook`)
      return value
    },
  }
}

export interface EmulatorHarness extends Runners {
  /** The emulator and the environment pointing at it (merchant secret key), or at it with another credential. */
  ctx: Pick<EmulatorEnv, 'emulator' | 'env' | 'envWith'>
  /** `payfac` and `json` with the marketplace API key. */
  marketplace: Runners
  /** A call to the emulator's control plane (`/__emulator…`): the JSON answer; a status of 300 or more fails the test. */
  control(method: string, path: string, body?: unknown): Promise<unknown>
}

/** An emulator on port 0 for the file or describe it is called in, with a temporary config dir. */
export function useEmulator(): EmulatorHarness {
  const running = started<EmulatorEnv>('The emulator of useEmulator()')
  beforeAll(async () => running.set(await startEmulatorEnv()))
  afterAll(async () => {
    await running.get().close()
    running.set(undefined)
  })
  const ctx = {
    get emulator() {
      return running.get().emulator
    },
    get env() {
      return running.get().env
    },
    envWith: (credential: string) => running.get().envWith(credential),
  }
  return {
    ctx,
    ...runnersFor(() => ctx.env),
    marketplace: runnersFor(() => ctx.envWith(ctx.emulator.credentials.marketplaceApiKey)),
    async control(method, path, body) {
      const response = await fetch(`${ctx.emulator.url}/__emulator${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      expect(response.status, `${method} ${path}`).toBeLessThan(300)
      return response.json()
    },
  }
}

/** A temporary folder for the file or describe it is called in, removed afterwards. */
export function useTempDir(prefix: string): () => string {
  const made = started<TempConfigDir>(`The folder of useTempDir('${prefix}')`)
  beforeAll(() => made.set(makeTempConfigDir(prefix)))
  afterAll(() => {
    made.get().cleanup()
    made.set(undefined)
  })
  return () => made.get().dir
}

/** Credentials of the right shapes (a merchant secret key, a marketplace API key); the recording server takes any. */
export const RECORDING_SECRET_KEY = 'sandbox_sk_cmdTestKey00000000000001'
export const RECORDING_MARKETPLACE_KEY = 'sandbox_api_recordingMarketplaceKey01'

export interface RecordingHarness {
  /** The running server: its address, the requests since the current test began, and its answers. */
  server: {
    readonly url: string
    readonly requests: RecordedRequest[]
    respond(responder: Responder): void
  }
  /** The environment pointing payfac at the server, with a config dir of its own. */
  env(): Env
  /** payfac against the server. */
  cli: Payfac
}

/**
 * A server that records every request, for the file or describe it is called in. Before each
 * test it forgets the requests and answers with `defaultAnswer` again.
 */
export function useRecordingServer(defaultAnswer: Responder = () => ({ status: 200, body: {} }), options: { credential?: string } = {}): RecordingHarness {
  const running = started<{ server: RecordingServer; config: TempConfigDir }>('The server of useRecordingServer()')
  beforeAll(async () => running.set({ server: await startRecordingServer(defaultAnswer), config: makeTempConfigDir('payfac-recording-') }))
  afterAll(async () => {
    const { server, config } = running.get()
    running.set(undefined)
    await server.close()
    config.cleanup()
  })
  beforeEach(() => {
    const { server } = running.get()
    server.requests.length = 0
    server.respond(defaultAnswer)
  })
  const server = {
    get url() {
      return running.get().server.url
    },
    get requests() {
      return running.get().server.requests
    },
    respond: (responder: Responder) => running.get().server.respond(responder),
  }
  const env = () => commandEnv(running.get().config.dir, server.url, options.credential ?? RECORDING_SECRET_KEY)
  return { server, env, cli: (...argv) => runCommand(argv, { env: env() }) }
}

/** A name, the arguments (or a function giving them, run inside the test) and what stderr must say. */
export type RefusalCase = [name: string, argv: string[] | (() => string[]), message: RegExp]

/** One test a case: the command exits 2, prints nothing on stdout, says why on stderr and sends nothing. */
export function itRefusesBeforeSending(cases: RefusalCase[], recording: RecordingHarness, title = '%s'): void {
  it.each(cases)(title, async (_name, argv, message) => {
    const result = await recording.cli(...(typeof argv === 'function' ? argv() : argv))
    expect(result.code, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(message)
    expect(recording.server.requests).toHaveLength(0)
  })
}
