// The entry point behind bin/run.js. `--version` is answered from package.json without loading
// oclif at all; everything else goes to oclif, which reads oclif.manifest.json instead of loading
// every command file.
import { readFileSync } from 'node:fs'

const VERSION_ARGS = new Set(['--version', '-v', 'version'])

export async function main(argv: string[], binUrl: string): Promise<void> {
  if (argv.length === 1 && VERSION_ARGS.has(argv[0] as string)) {
    process.stdout.write(`${versionLine(binUrl)}\n`)
    return
  }
  const oclif = await import('@oclif/core')
  try {
    await oclif.run(argv, binUrl)
    await oclif.flush()
  } catch (error) {
    await oclif.handle(error as Error)
  }
}

/** The same line oclif prints: `payfac/0.1.0 linux-x64 node-v20.20.2`. */
export function versionLine(binUrl: string): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', binUrl), 'utf8')) as { name: string; version: string }
  return `${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}`
}
