/**
 * @module Functions on a table family: the tables files of one folder that share a shape, one file
 * per member keyed by its file stem (tables/employment/law/ca.yaml is member `ca` of family
 * `employment.law`). A rule set lists the members, reads a member's parameter by name on a date,
 * tests whether a member has it (absent: not loaded), and lists a member's parameters with their
 * dated histories. The family is named as a text literal, checked at load; every figure read or
 * listed is cited in the answer, and its `unverified` caveat repeated in the notes.
 */
import { at, type Dated, type FamilyMember, type ParameterEntry, type Scalar } from '../data/tables.js'
import type { Value } from '../model/types.js'
import type { CallContext, FunctionLibrary, Lambda, ValueType } from './spec.js'
import { chargeItems, date, list, text } from './values.js'

const family = { family: true } as const

function member(cx: CallContext, v: Value | Lambda): FamilyMember {
  const name = text(cx, v, 'the member')
  const found = cx.family!.members.get(name)
  return found ?? cx.fail(`${cx.family!.id} has no member '${name}'; its members are ${[...cx.family!.members.keys()].join(', ')}`)
}

const citation = (c: { title: string; href?: string }): Value => ({ title: c.title, href: c.href ?? null })

function datedRecord(d: Dated<Scalar>): Value {
  return { effective: d.from, value: d.value, references: d.references.map(citation), unverified: d.unverified ?? null }
}

const CITATION: ValueType = { record: { title: 'text', href: 'text' } }
const DATED: ValueType = { record: { effective: 'date', value: 'any', references: { list: CITATION }, unverified: 'text' } }
const PARAMETER: ValueType = {
  record: { name: 'text', section: 'text', label: 'text', unit: 'text', references: { list: CITATION }, first_effective: 'date', history: { list: DATED } },
}

export const families: FunctionLibrary = {
  members: {
    doc: "The members of a table family, sorted: the file stems of its folder (members('employment.law') lists us, ca, ny…).",
    args: [family],
    returns: { list: 'text' },
    impl: (_args, cx) => {
      const names = [...cx.family!.members.keys()]
      chargeItems(cx, names.length)
      return names
    },
  },
  has_parameter: {
    doc: "Whether a member of a family has a parameter of this name (absent means not loaded): has_parameter('employment.law', state, 'minimum_wage'). An unknown member is false.",
    args: [family, 'text', 'text'],
    returns: 'boolean',
    impl: ([, m, n], cx) => cx.family!.members.get(text(cx, m!, 'the member'))?.parameters.has(text(cx, n!, 'the parameter')) ?? false,
  },
  member_value: {
    doc: "A member's parameter in force on a date, cited; null when the member has no such parameter or no value in force then: member_value('employment.law', state, 'minimum_wage', on). Its type is the parameter's across the members (their union), checked at load when the name is written as text.",
    args: [family, 'text', 'text', 'date'],
    returns: 'any',
    parameterArg: 2,
    impl: ([, m, n, d], cx) => {
      const entry = member(cx, m!).parameters.get(text(cx, n!, 'the parameter'))
      const on = date(cx, d!, 'the date')
      if (!entry || !at(entry.history, on)) return null
      return cx.rt.read(entry, { date: on })
    },
  },
  member_effective: {
    doc: "The effective date of a member's parameter value in force on a date (null when none is): when the value member_value reads took effect.",
    args: [family, 'text', 'text', 'date'],
    returns: 'date',
    impl: ([, m, n, d], cx) => {
      const entry = member(cx, m!).parameters.get(text(cx, n!, 'the parameter'))
      return (entry && at(entry.history, date(cx, d!, 'the date'))?.from) ?? null
    },
  },
  member_parameters: {
    doc: "Every parameter of a member, in file order, as records { name, section, label, unit, references, first_effective, history }, whose history lists the dated values { effective, value, references, unverified } in force at some time from one date through another (the one in force on the first, then each change up to the second); each value listed is cited. A fifth argument, a list of sections, keeps only the parameters of those sections (and cites only theirs). A parameter with no value in that window has an empty history. value is of any type (each parameter its own).",
    args: [family, 'text', 'date', 'date', { list: 'text' }],
    required: 4,
    returns: { list: PARAMETER },
    impl: ([, m, f, t, s], cx) => {
      const from = date(cx, f!, 'the start')
      const through = date(cx, t!, 'the end')
      if (through < from) return cx.fail(`the end ${through} is before the start ${from}`)
      const sections = s === undefined || s === null ? undefined : list(cx, s, 'the sections').map((v) => text(cx, v, 'a section'))
      const all = [...member(cx, m!).parameters.values()]
      chargeItems(cx, all.length)
      const chosen = all.filter((p) => !sections || (p.section !== undefined && sections.includes(p.section)))
      return chosen.map((p: ParameterEntry) => {
        const inForce = at(p.history, from)
        const listed = p.history.filter((h) => h === inForce || (h.from > from && h.from <= through))
        for (const h of listed) cx.rt.citeValue(p, h)
        return {
          name: p.name,
          section: p.section ?? null,
          label: p.label,
          unit: p.unit,
          references: p.references.map(citation),
          first_effective: p.history[0]?.from ?? null,
          history: listed.map(datedRecord),
        }
      })
    },
  },
  member_rows: {
    doc: "The rows of a member's lookup table in force on a date, in file order, each a record of its columns; cited like any table read, empty when the member has no lookup of that name or no rows in force then (not loaded): member_rows('tos.services', service, 'dimensions', on). An unknown member is an error: check members first. The columns are read as the rows hold them (any).",
    args: [family, 'text', 'text', 'date'],
    returns: { list: 'any' },
    impl: ([, m, n, d], cx) => {
      const entry = member(cx, m!).lookups.get(text(cx, n!, 'the table'))
      const on = date(cx, d!, 'the date')
      if (!entry || !at(entry.history, on)) return []
      const rows = [...cx.rt.read(entry, { date: on }).values()]
      chargeItems(cx, rows.length)
      return rows.map((row) => ({ ...row }))
    },
  },
  member_coverage: {
    doc: "What a member holds, without reading a figure (nothing cited; the answer is dated by the file's as_of): { as_of, parameters }, each parameter { name, section, first_effective, last_effective }: for a coverage report and the range of dates it can answer.",
    args: [family, 'text'],
    returns: { record: { as_of: 'date', parameters: { list: { record: { name: 'text', section: 'text', first_effective: 'date', last_effective: 'date' } } } } },
    impl: ([, m], cx) => {
      const found = member(cx, m!)
      chargeItems(cx, found.parameters.size)
      cx.rt.dataDate(found.as_of)
      return {
        as_of: found.as_of,
        parameters: [...found.parameters.values()].map((p) => ({
          name: p.name,
          section: p.section ?? null,
          first_effective: p.history[0]?.from ?? null,
          last_effective: p.history[p.history.length - 1]?.from ?? null,
        })),
      }
    },
  },
}
