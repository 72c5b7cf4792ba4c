/**
 * @module A scope of formulas (the root of a rule set, a list item, a fixed point's iterate):
 * compiled, put in dependency order (a cycle is a problem), and split into what is evaluated first
 * (decisions, calls, lists that hold them) and what is computed when read.
 */
import type { NameResolver } from './expression.js'
import type { PathSegment } from '../load/source.js'
import type { Node, ScopeDef } from '../model/rule-set.js'
import type { Compiler, Raw } from './compiler.js'
import { compileNode } from './nodes.js'

/**
 * Compile the formulas of one scope and order them by their dependencies.
 * `outerDeps` collects names of enclosing scopes that this scope reads, for the enclosing node.
 */
export function compileScope(
  c: Compiler,
  raw: Record<string, Raw>,
  path: PathSegment[],
  resolver: NameResolver,
  outerDeps: Set<string>,
  leaves: Set<string>,
  names: string[],
): ScopeDef {
  const local = new Set([...leaves, ...Object.keys(raw)])
  const formulas = new Map<string, Node>()
  for (const [name, spec] of Object.entries(raw)) {
    const node = compileNode(c, name, spec, [...path, name], resolver)
    if (!node) continue
    for (const dep of node.deps) if (!local.has(dep)) outerDeps.add(dep)
    for (const dep of [...node.deps]) if (!formulas.has(dep) && !(dep in raw)) node.deps.delete(dep)
    formulas.set(name, node)
  }
  const sorted = order(c, formulas)
  const slots = new Map(names.map((n, i) => [n, i]))
  return {
    names,
    bound: leaves.size,
    slots,
    nodes: names.map((n) => formulas.get(n)),
    formulas,
    order: sorted,
    firstOrder: sorted.filter((n) => isFirst(formulas.get(n)!)),
  }
}

/** Whether a root name is, or reads through formulas, a node the scope evaluates first. */
export function waitsForFirst(root: ScopeDef): (name: string) => boolean {
  const memo = new Map<string, boolean>()
  const waits = (name: string): boolean => {
    const known = memo.get(name)
    if (known !== undefined) return known
    memo.set(name, false)
    const node = root.formulas.get(name)
    const result = node !== undefined && (isFirst(node) || [...node.deps].some(waits))
    memo.set(name, result)
    return result
  }
  return waits
}

export function isFirst(node: Node): boolean {
  return node.kind === 'decision' || node.kind === 'call' || (node.kind === 'each' && node.scope.firstOrder.length > 0)
}


/** Dependency order; a cycle is reported once, with its path, where its first formula stands. */
export function order(c: Compiler, formulas: Map<string, Node>): string[] {
  const done = new Set<string>()
  const visiting: string[] = []
  const out: string[] = []
  const reported = new Set<string>()
  const visit = (name: string) => {
    if (done.has(name)) return
    const at = visiting.indexOf(name)
    if (at >= 0) {
      const cycle = [...visiting.slice(at), name]
      const key = [...cycle].sort().join(',')
      if (!reported.has(key)) {
        reported.add(key)
        const first = formulas.get(cycle[0]!)!
        c.problems.push(c.source.problem(first.path, `cycle: ${cycle.join(' → ')}`))
      }
      return
    }
    const node = formulas.get(name)
    if (!node) return
    visiting.push(name)
    for (const dep of node.deps) visit(dep)
    visiting.pop()
    done.add(name)
    out.push(name)
  }
  for (const name of formulas.keys()) visit(name)
  return out
}


/** The formulas inside an `each` or `solve`, at any depth. */
export function nested(node: Node): Node[] {
  if (node.kind !== 'each' && node.kind !== 'solve') return []
  return [...node.scope.formulas.values()].flatMap((n) => [n, ...nested(n)])
}


/** The names of a scope in slot order, and a resolver that finds each by slot (its own, or an outer scope's one level further out). */
export function scopeLayout(outer: NameResolver, bound: readonly string[], formulas: readonly string[]): { names: string[]; resolver: NameResolver } {
  const names = [...bound, ...formulas.filter((f) => !bound.includes(f))]
  const slots = new Map(names.map((n, i) => [n, i]))
  const resolver: NameResolver = {
    ...outer,
    hasValue: (n) => slots.has(n) || outer.hasValue(n),
    slot: (n) => {
      const index = slots.get(n)
      if (index !== undefined) return { depth: 0, index }
      const out = outer.slot?.(n)
      return out ? { depth: out.depth + 1, index: out.index } : undefined
    },
  }
  return { names, resolver }
}
