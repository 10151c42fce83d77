// A private PostgreSQL cluster for a test file: initdb in a temporary folder, a free port on
// 127.0.0.1, its unix socket in that folder, trust authentication for its own users only (it
// listens nowhere else), stopped and removed at the end. Never assumes a cluster is running.
//
// initdb and postgres refuse to run as root: as root (CI), the cluster runs as an unprivileged
// user (`postgres` when Debian's package made one, else `nobody`) through runuser, and its folder
// is given to that user. Debian's binaries are found under /usr/lib/postgresql/<version>/bin, or
// by `pg_config --bindir`.
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'

export interface PgCluster {
  /** postgres://payfac@127.0.0.1:<port>/payfac: the journal database, owned by the user `payfac`. */
  url: string
  port: number
  /** The URL of another user or database of this cluster. */
  urlFor(user: string, database?: string): string
  /** Runs SQL as the superuser on `database` (default payfac); returns psql's unaligned output. */
  sql(text: string, database?: string): string
  /** Stops the server (fast, or immediate: as a crash), keeping its folder: `start()` brings it back. */
  stop(mode?: 'fast' | 'immediate'): void
  start(): void
  /** Stops it and removes its folder. */
  close(): void
}

function binDir(): string {
  const root = '/usr/lib/postgresql'
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))
    if (versions[0]) return join(root, versions[0], 'bin')
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim()
  } catch {
    throw new Error('PostgreSQL is not installed (initdb not found): apt-get install postgresql')
  }
}

/** A user to run the cluster as when this process is root. */
function clusterUser(): string | undefined {
  if (process.getuid?.() !== 0) return undefined
  const known = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' })
  return known.status === 0 ? 'postgres' : 'nobody'
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

export async function startPostgres(): Promise<PgCluster> {
  const bin = binDir()
  const user = clusterUser()
  const dir = mkdtempSync(join(tmpdir(), 'payfac-pg-'))
  const data = join(dir, 'data')
  const port = await freePort()
  const run = (tool: string, args: string[], input?: string): string => {
    const command = user ? ['runuser', ['-u', user, '--', join(bin, tool), ...args]] : [join(bin, tool), args]
    const result = spawnSync(command[0] as string, command[1] as string[], { encoding: 'utf8', input, cwd: dir })
    if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`)
    return result.stdout
  }
  if (user) {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim())
    chownSync(dir, uid, gid)
  }
  const superuser = 'payfac_admin'
  run('initdb', ['-D', data, '-U', superuser, '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`
  const start = () => void run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start'])
  start()
  const sql = (text: string, database = 'payfac') =>
    run('psql', ['-h', dir, '-p', String(port), '-U', superuser, '-d', database, '-v', 'ON_ERROR_STOP=1', '-qAt'], text)
  sql(`CREATE ROLE payfac LOGIN; CREATE DATABASE payfac OWNER payfac;`, 'postgres')
  let stopped = false
  const urlFor = (who: string, database = 'payfac') => `postgres://${who}@127.0.0.1:${port}/${database}`
  return {
    url: urlFor('payfac'),
    port,
    urlFor,
    sql,
    stop: (mode = 'fast') => {
      run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop'])
      stopped = true
    },
    start: () => {
      start()
      stopped = false
    },
    close: () => {
      try {
        if (!stopped) run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** The user this test process runs as (for messages). */
export const testUser = (): string => userInfo().username
