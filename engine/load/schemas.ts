/**
 * @module JSON Schemas of the four kinds of YAML file the engine reads, enforced by ajv at load
 * (endpoint manifests are the service's: service/manifest-schema.ts).
 *
 * - `service`: rules/service.yaml, the formula version and tier every file is stamped with;
 * - `tables`: tables/**, dated parameters, marginal-rate schedules, keyed lookups and series;
 * - `rule_set`: rules/**, inputs, formulas, decisions, checks, outputs and notes;
 * - `sources`: tables/sources.yaml, the registry of sources that references name by key.
 */
import type { FromSchema } from 'json-schema-to-ts'

const exact = { type: 'string', pattern: '^-?[0-9][0-9_]*(\\.[0-9]+)?(/[0-9][0-9_]*)?$' } as const
const isoDate = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' } as const
const name = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } as const
const expression = { type: 'string', minLength: 1 } as const

/** The key of a source in tables/sources.yaml: its title and address are written there once. */
const sourceKey = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' } as const
/**
 * A citation: a source by key, with a pinpoint (`section`) or the pinpoint's own name (`title`);
 * or, for a source the registry does not hold, its title and address written out.
 */
const citation = {
  type: 'object',
  additionalProperties: false,
  properties: {
    source: sourceKey,
    section: { type: 'string', minLength: 1, description: 'A pinpoint within the source: "(b)(1)" follows its title directly, anything else after a comma.' },
    title: { type: 'string', minLength: 3 },
    href: { type: 'string' },
    note: { type: 'string' },
  },
  oneOf: [
    { required: ['title'], not: { anyOf: [{ required: ['source'] }, { required: ['section'] }] } },
    { required: ['source'], not: { anyOf: [{ required: ['href'] }, { required: ['section', 'title'] }] } },
  ],
} as const
const reference = { anyOf: [sourceKey, citation, { type: 'array', minItems: 1, items: { anyOf: [sourceKey, citation] } }] } as const

/** Marks a figure that could not be verified against a primary source: the reason, said in notes. */
const unverified = { type: 'string', minLength: 10 } as const

/** A value history: effective dates mapped to what took effect then, each with its own citation. */
function dated<const R extends readonly string[], const P extends Record<string, unknown>>(required: R, properties: P) {
  return {
    type: 'object',
    propertyNames: isoDate,
    minProperties: 1,
    additionalProperties: { type: 'object', required, additionalProperties: false, properties: { ...properties, reference, unverified } },
  } as const
}

const parameter = {
  type: 'object',
  required: ['kind', 'label', 'unit', 'reference', 'values'],
  additionalProperties: false,
  properties: {
    kind: { const: 'parameter' },
    label: { type: 'string' },
    description: { type: 'string' },
    section: { ...name, description: 'The topic this parameter belongs to in a file that groups several (a jurisdiction\'s minimum wage, overtime, sick leave).' },
    unit: { type: 'string' },
    reference,
    values: dated(['value'], { value: { anyOf: [exact, { type: 'string' }, { type: 'boolean' }] } }),
  },
} as const

const bracket = {
  type: 'object',
  required: ['over', 'rate'],
  additionalProperties: false,
  properties: { over: exact, rate: exact, base: exact },
} as const

const schedule = {
  type: 'object',
  required: ['kind', 'label', 'reference', 'values'],
  additionalProperties: false,
  properties: {
    kind: { const: 'marginal_rate_schedule' },
    label: { type: 'string' },
    description: { type: 'string' },
    reference,
    values: dated(['brackets'], { brackets: { type: 'array', minItems: 1, items: bracket } }),
  },
} as const

const lookup = {
  type: 'object',
  required: ['kind', 'label', 'reference', 'keys', 'columns', 'values'],
  additionalProperties: false,
  properties: {
    kind: { const: 'lookup' },
    label: { type: 'string' },
    description: { type: 'string' },
    reference,
    keys: { type: 'array', minItems: 1, items: name },
    columns: {
      type: 'object',
      minProperties: 1,
      propertyNames: name,
      additionalProperties: { enum: ['amount', 'rate', 'text', 'boolean'] },
    },
    values: dated(['rows'], { rows: { type: 'array', minItems: 1, items: { type: 'object', additionalProperties: { type: ['string', 'boolean'] } } } }),
  },
} as const

const series = {
  type: 'object',
  required: ['kind', 'label', 'unit', 'reference', 'points'],
  additionalProperties: false,
  properties: {
    kind: { const: 'series' },
    label: { type: 'string' },
    description: { type: 'string' },
    unit: { type: 'string' },
    reference,
    points: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: '^[0-9A-Za-z_-]+$' },
      description: 'Each point is an amount, or { value, reference } where one act or release set it (a monthly revenue ruling).',
      additionalProperties: {
        oneOf: [exact, { type: 'object', required: ['value', 'reference'], additionalProperties: false, properties: { value: exact, reference } }],
      },
    },
  },
} as const

const columnType = { enum: ['amount', 'integer', 'rate', 'text', 'date', 'boolean'] } as const
const columnList = { type: 'array', minItems: 1, items: name } as const

/** A data set: rows in a CSV or JSON Lines file beside the tables file, described here. */
const dataset = {
  type: 'object',
  required: ['kind', 'label', 'file', 'format', 'columns', 'source', 'licence', 'retrieved'],
  additionalProperties: false,
  properties: {
    kind: { const: 'dataset' },
    label: { type: 'string' },
    description: { type: 'string' },
    file: { type: 'string', pattern: '^[A-Za-z0-9_./-]+\\.(csv|jsonl)$', description: 'The data file, relative to this tables file.' },
    format: { enum: ['csv', 'jsonl'] },
    columns: { type: 'object', minProperties: 1, propertyNames: name, additionalProperties: columnType },
    key: { ...columnList, description: 'The columns rows() looks up by; several rows may share a key.' },
    history: {
      type: 'object',
      required: ['key', 'effective'],
      additionalProperties: false,
      description: 'A value history per key: one row per key and effective date.',
      properties: { key: columnList, effective: name },
    },
    band: {
      type: 'object',
      required: ['lower', 'upper'],
      additionalProperties: false,
      description: 'A range lookup: the lower bound is inclusive, the upper exclusive; an empty upper bound is open-ended.',
      properties: { lower: name, upper: name },
    },
    search: { ...columnList, description: 'Text columns indexed by their words (SQLite FTS5), for search_rows(set, text, limit): the rows sharing words with a text, best first.' },
    identifiers: { ...columnList, description: 'Identifier columns (a number, a licence code) indexed as entity_match compares identifiers (upper case, no spaces, hyphens, dots or slashes), for rows_with(set, column, value).' },
    source: { anyOf: [sourceKey, citation], description: 'Where the records come from: the publisher and the address they were retrieved from.' },
    licence: { type: 'string', minLength: 3 },
    retrieved: isoDate,
    reference,
    update: {
      type: 'object',
      additionalProperties: false,
      description: 'How `npm run data -- update` refreshes the data set from its publisher (absent: part of the rules, edited by hand).',
      properties: {
        importer: { type: 'string', pattern: '^[a-z0-9-]+$', description: "The importer (tools/data/importers.ts) that turns the publisher's file into this data set's file." },
        url: { type: 'string', pattern: '^https://', description: "The publisher's bulk file." },
        obtain: { type: 'string', minLength: 3, description: 'Where the publisher gives no fixed address: how to get the file (then `--from`).' },
        page: { type: 'string', pattern: '^https://', description: "With `obtain`: the publisher's page the records are credited to." },
        options: { type: 'object', additionalProperties: { type: 'string' }, description: "The importer's options (a filter the shipped extract was made with)." },
        max_drop: { type: 'number', minimum: 0, maximum: 1, description: 'The largest share of rows an update may lose without --force (default 0.2).' },
        no_bulk_file: { type: 'string', minLength: 3, description: 'Why the publisher offers no bulk file.' },
        lookup: { type: 'string', pattern: '^https://', description: "The publisher's own lookup, for what the data set lacks." },
        by_hand: { type: 'string', minLength: 3, description: 'The publisher has a bulk file but the update command cannot import it yet: how it is refreshed by hand.' },
      },
      oneOf: [{ required: ['importer'], anyOf: [{ required: ['url'] }, { required: ['obtain', 'page'] }], not: { anyOf: [{ required: ['no_bulk_file'] }, { required: ['lookup'] }, { required: ['by_hand'] }] } }, { required: ['no_bulk_file', 'lookup'], not: { anyOf: [{ required: ['importer'] }, { required: ['by_hand'] }] } }, { required: ['by_hand'], not: { anyOf: [{ required: ['importer'] }, { required: ['no_bulk_file'] }] } }],
    },
  },
} as const

export const tablesSchema = {
  type: 'object',
  required: ['formula_version', 'title', 'as_of', 'tables'],
  additionalProperties: false,
  properties: {
    formula_version: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    as_of: isoDate,
    tables: { type: 'object', minProperties: 1, propertyNames: name, additionalProperties: { type: 'object' } },
  },
} as const

/** One entry of a tables file, validated on its own so that one bad entry hides no other. */
export const tableEntrySchema = {
  type: 'object',
  required: ['kind'],
  discriminator: { propertyName: 'kind' },
  oneOf: [parameter, schedule, lookup, series, dataset],
} as const

const rounding = {
  type: 'object',
  required: ['step', 'mode'],
  additionalProperties: false,
  properties: { step: exact, mode: { enum: ['half_up', 'half_even', 'down', 'up'] } },
} as const

const inputSpec: object = {
  type: 'object',
  required: ['type'],
  additionalProperties: false,
  properties: {
    type: { enum: ['amount', 'integer', 'text', 'boolean', 'date', 'object', 'list'] },
    default: {},
    description: { type: 'string' },
    fields: { type: 'object', propertyNames: name, additionalProperties: { $ref: '#/$defs/input' } },
    items: { $ref: '#/$defs/input' },
  },
}

/** Texts declared as notes are: each a template, with the condition it holds under. */
const declaredTexts = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['text'],
    additionalProperties: false,
    properties: { when: expression, text: { type: 'string', minLength: 1 } },
  },
} as const

const formulaNode: object = {
  type: 'object',
  additionalProperties: false,
  properties: {
    label: { type: 'string' },
    description: { type: 'string' },
    reference,
    round: name,
    formula: expression,
    text: {
      description: 'A declared text: one template ("… {x} … {$amount} …"), or a list of {when, text} of which the first that holds is the value (null when none does).',
      anyOf: [{ type: 'string', minLength: 1 }, declaredTexts],
    },
    texts: { ...declaredTexts, description: 'Declared texts: the list of those whose `when` holds (an item without `when` always holds), each a template as a note is.' },
    decision: {
      type: 'object',
      required: ['rules'],
      additionalProperties: false,
      properties: {
        rules: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['when', 'outcome'],
            additionalProperties: false,
            properties: { when: expression, outcome: name, priority: { type: 'integer', minimum: 1 }, reference },
          },
        },
        default: name,
      },
    },
    call: {
      type: 'object',
      required: ['rule_set'],
      additionalProperties: false,
      properties: {
        rule_set: { type: 'string', pattern: '^[a-z0-9_.{}]+$' },
        fallback: { type: 'string' },
        when: expression,
        pass: { type: 'array', items: name, description: "Names whose values in the caller go, unchanged, to the called rule set's inputs of the same names." },
        input: { $ref: '#/$defs/call_input' },
      },
    },
    each: {
      type: 'object',
      required: ['over', 'result'],
      additionalProperties: false,
      properties: {
        over: expression,
        as: name,
        carry: {
          type: 'object',
          propertyNames: name,
          additionalProperties: {
            type: 'object',
            required: ['start', 'next'],
            additionalProperties: false,
            properties: { start: expression, next: expression },
          },
        },
        until: expression,
        formulas: { $ref: '#/$defs/formulas' },
        result: { type: ['object', 'string'] },
      },
    },
    solve: {
      type: 'object',
      required: ['start', 'next', 'tolerance', 'max_iterations'],
      additionalProperties: false,
      properties: {
        start: expression,
        formulas: { $ref: '#/$defs/formulas' },
        next: expression,
        tolerance: exact,
        max_iterations: { type: 'integer', minimum: 1, maximum: 10000 },
      },
    },
  },
  oneOf: [{ required: ['formula'] }, { required: ['text'] }, { required: ['texts'] }, { required: ['decision'] }, { required: ['call'] }, { required: ['each'] }, { required: ['solve'] }],
}

export const ruleSetSchema = {
  $defs: {
    input: inputSpec,
    formula: formulaNode,
    formulas: { type: 'object', propertyNames: name, additionalProperties: { $ref: '#/$defs/formula' } },
    call_input: {
      type: 'object',
      propertyNames: name,
      description: 'Each input of the called rule set: an expression, or a mapping of its fields for an object input.',
      additionalProperties: { anyOf: [expression, { $ref: '#/$defs/call_input' }] },
    },
  },
  type: 'object',
  required: ['formula_version', 'kind', 'title', 'outputs'],
  additionalProperties: false,
  properties: {
    formula_version: { type: 'string' },
    kind: { const: 'rule_set' },
    title: { type: 'string' },
    description: { type: 'string' },
    reference,
    inputs: { type: 'object', propertyNames: name, additionalProperties: { $ref: '#/$defs/input' } },
    inputs_like: { type: 'string', description: "Take the input declarations (and the calculation date) of this rule set; `inputs` adds to them." },
    outputs_like: { type: 'string', description: 'Take the shape of the result of this rule set; `outputs` writes only what differs (a field set to null is removed).' },
    date: {
      type: 'object',
      required: ['default'],
      additionalProperties: false,
      properties: { input: name, default: expression },
    },
    roundings: { type: 'object', propertyNames: name, additionalProperties: rounding },
    formulas: { $ref: '#/$defs/formulas' },
    functions: {
      type: 'object',
      description: 'Functions of this rule set, callable from its formulas: each body sees only its parameters, the tables and the functions above it.',
      propertyNames: name,
      additionalProperties: {
        type: 'object',
        required: ['params', 'formula'],
        additionalProperties: false,
        properties: {
          params: { type: 'object', minProperties: 1, propertyNames: name, additionalProperties: { enum: ['amount', 'integer', 'rate', 'text', 'boolean', 'date', 'list', 'object'] } },
          formula: expression,
          label: { type: 'string' },
          description: { type: 'string' },
          reference,
        },
      },
    },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['when', 'field', 'message'],
        additionalProperties: false,
        properties: {
          when: { ...expression, description: 'True when the request is wrong: then it is refused, naming the field.' },
          field: { type: 'string', description: 'The request field at fault; with for_each, the item\'s: `donees[{i}].relationship`.' },
          for_each: { ...expression, description: 'Make the check once per item of this list; each failing item is a fault of its own.' },
          as: { type: 'string', pattern: '^[a-z_][a-z0-9_]*$', description: 'With for_each: the item\'s name; without it, a record item\'s fields are names.' },
          index: { type: 'string', pattern: '^[a-z_][a-z0-9_]*$', description: 'With for_each: the name of the item\'s index from 0 (default i).' },
          message: { type: 'string' },
          code: { enum: ['validation_error', 'unsupported_parameter'] },
          reference,
        },
      },
    },
    outputs: { type: 'object' },
    notes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['text'],
        additionalProperties: false,
        properties: { when: expression, text: { type: 'string', minLength: 1 } },
      },
    },
  },
} as const

export const serviceSchema = {
  type: 'object',
  required: ['formula_version', 'kind', 'tier', 'currencies', 'default_currency', 'limits', 'suites'],
  additionalProperties: false,
  properties: {
    formula_version: { type: 'string' },
    kind: { const: 'service' },
    suites: {
      type: 'object',
      minProperties: 1,
      description: 'The suites callers know the features by (SPEC.md), by id: each feature names its own (`suite:` in its manifest), and the documents of the service group the features by it.',
      propertyNames: name,
      additionalProperties: {
        type: 'object',
        required: ['name', 'description'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 3 }, description: { type: 'string', minLength: 3 } },
      },
    },
    tier: { enum: ['beta', 'verified'] },
    description: { type: 'string' },
    roundings: { type: 'object', propertyNames: name, additionalProperties: rounding },
    currencies: {
      type: 'object',
      minProperties: 1,
      description: 'The currencies endpoints answer in, by ISO 4217 code: how notes print money and how documents name it.',
      propertyNames: { pattern: '^[A-Z]{3}$' },
      additionalProperties: {
        type: 'object',
        required: ['name', 'symbol', 'minor_units'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 3 }, symbol: { type: 'string', minLength: 1 }, minor_units: { type: 'integer', minimum: 0, maximum: 4 } },
      },
    },
    default_currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'The currency of an endpoint that names none.' },
    limits: {
      type: 'object',
      description: 'The most work one request may do: evaluation steps (each formula, list item, call, fixed-point iteration and lambda call, and what library functions charge for the work they do), past which a request is a 400, and wall-clock milliseconds, a far backstop answered 503. WORK_LIMIT_STEPS and WORK_LIMIT_MS override them.',
      required: ['steps', 'milliseconds'],
      additionalProperties: false,
      properties: { steps: { type: 'integer', minimum: 1000 }, milliseconds: { type: 'integer', minimum: 10 } },
    },
  },
} as const

/** tables/sources.yaml: every source cited more than once, by key (sources.ts). */
export const sourcesSchema = {
  type: 'object',
  required: ['formula_version', 'kind', 'title', 'sources'],
  additionalProperties: false,
  properties: {
    formula_version: { type: 'string' },
    kind: { const: 'sources' },
    title: { type: 'string' },
    description: { type: 'string' },
    sources: {
      type: 'object',
      propertyNames: sourceKey,
      additionalProperties: {
        type: 'object',
        required: ['title', 'href'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', minLength: 3 },
          href: { type: 'string', pattern: '^https?://' },
          publisher: { type: 'string', minLength: 2 },
          retrieved: isoDate,
        },
      },
    },
  },
} as const

/** The shape of rules/service.yaml, as its schema defines it (ajv checks it at load). */
export type ServiceFile = FromSchema<typeof serviceSchema>
/** The shape of a tables file; each entry is checked on its own against `tableEntrySchema`. */
export type TablesFile = FromSchema<typeof tablesSchema>
/** The entries of a tables file, one type per kind. */
export type ParameterFile = FromSchema<typeof parameter>
export type ScheduleFile = FromSchema<typeof schedule>
export type LookupFile = FromSchema<typeof lookup>
export type SeriesFile = FromSchema<typeof series>
export type DatasetFile = FromSchema<typeof dataset>
export type TableEntryFile = ParameterFile | ScheduleFile | LookupFile | SeriesFile | DatasetFile
