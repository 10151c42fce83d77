// Method + path template → route. Templates are `/orders/{orderId}/pay`: literal segments and
// `{name}` parameters, one per segment. Matching is precise, not first-come:
//   1. Among the templates whose segments fit the path, the most specific wins: comparing
//      segment by segment, a literal beats a parameter at the first place they differ. So
//      `/customers/delegates` is never taken for `/customers/{customerId}`, nor
//      `/merchants/industries` for `/merchants/{merchantId}`.
//   2. The winning template answers for its path whatever the method: a method it does not
//      declare is a 405 with `Allow`, never a fall-through to a less specific template.
//   3. No template fits: 404.
import { EmulatorError } from './api-error.js'
import type { Method, Route } from './route.js'

type Segment = { literal: string } | { param: string }

interface Template {
  path: string
  segments: Segment[]
  methods: Map<string, Route>
}

export interface RouteMatch {
  route: Route
  params: Record<string, string>
}

export class Router {
  private readonly templates: Template[] = []
  /** The templates by their number of segments: a path is compared with those of its length only. */
  private readonly byLength = new Map<number, Template[]>()

  constructor(routes: readonly Route[]) {
    const byShape = new Map<string, Template>()
    for (const route of routes) {
      const segments = parseTemplate(route.path)
      const shape = segments.map((s) => ('literal' in s ? s.literal : '{}')).join('/')
      let template = byShape.get(shape)
      if (!template) {
        template = { path: route.path, segments, methods: new Map() }
        byShape.set(shape, template)
        this.templates.push(template)
        const same = this.byLength.get(segments.length)
        if (same) same.push(template)
        else this.byLength.set(segments.length, [template])
      } else if (template.path !== route.path) {
        throw new Error(`Route templates ${template.path} and ${route.path} differ only in parameter names`)
      }
      if (template.methods.has(route.method)) throw new Error(`Route ${route.method} ${route.path} is declared twice`)
      template.methods.set(route.method, route)
    }
  }

  /** The route for a request, or a 404/405 EmulatorError. `pathname` is the raw (still encoded) path. */
  match(method: string, pathname: string): RouteMatch {
    const parts = splitPath(pathname)
    let best: Template | undefined
    let bestValues: string[] = []
    if (parts !== undefined) {
      for (const template of this.byLength.get(parts.length) ?? []) {
        if (!fits(template, parts)) continue
        if (best === undefined || moreSpecific(template, best)) {
          best = template
          bestValues = parts
        }
      }
    }
    if (best === undefined) {
      throw new EmulatorError(404, 'no_such_operation', `No operation at ${pathname}`)
    }
    const route = best.methods.get(method)
    if (!route) {
      const allow = [...best.methods.keys()].sort().join(', ')
      throw new EmulatorError(405, 'method_not_allowed', `${method} is not allowed on ${best.path}; allowed: ${allow}`, {
        headers: { Allow: allow },
      })
    }
    const params: Record<string, string> = {}
    best.segments.forEach((s, i) => {
      if ('param' in s) params[s.param] = bestValues[i] as string
    })
    return { route, params }
  }

  /** Every registered route, for documentation and tests. */
  routes(): Route[] {
    return this.templates.flatMap((t) => [...t.methods.values()])
  }

  /** The methods declared for a template path. */
  methodsOf(path: string): Method[] {
    return [...(this.templates.find((t) => t.path === path)?.methods.keys() ?? [])] as Method[]
  }
}

function parseTemplate(path: string): Segment[] {
  if (!path.startsWith('/')) throw new Error(`Route path ${path} must start with /`)
  return path
    .split('/')
    .slice(1)
    .map((part) => {
      const param = /^\{([A-Za-z][A-Za-z0-9]*)\}$/.exec(part)
      if (param) return { param: param[1] as string }
      if (!/^[A-Za-z0-9._-]+$/.test(part)) throw new Error(`Route path ${path} has an invalid segment "${part}"`)
      return { literal: part }
    })
}

/** Each literal segment of the template is the path's. */
function fits(template: Template, parts: string[]): boolean {
  const segments = template.segments
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i] as Segment
    if ('literal' in s && s.literal !== parts[i]) return false
  }
  return true
}

/** Decoded segments of a request path; a trailing slash is ignored; undefined for empty or undecodable segments. */
function splitPath(pathname: string): string[] | undefined {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname
  if (!trimmed.startsWith('/')) return undefined
  const out = trimmed.slice(1).split('/')
  for (let i = 0; i < out.length; i++) {
    const part = out[i] as string
    if (part === '') return undefined
    // Only a segment with an escape needs decoding.
    if (!part.includes('%')) continue
    try {
      out[i] = decodeURIComponent(part)
    } catch {
      return undefined
    }
  }
  return out
}

function moreSpecific(a: Template, b: Template): boolean {
  for (let i = 0; i < a.segments.length; i++) {
    const la = 'literal' in (a.segments[i] as Segment)
    const lb = 'literal' in (b.segments[i] as Segment)
    if (la !== lb) return la
  }
  return false
}
