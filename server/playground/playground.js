// The playground page (GET /playground): everything it shows comes from /openapi.json and from the
// answers of this service. No framework and no build step: the file is served as written.
//
// The key the person pastes stays in this page: in a variable and, so that a reload keeps it, in
// this tab's sessionStorage; it is sent only as the x-api-key header of the calls below, all to this
// origin (the page's Content-Security-Policy allows no other).

const KEY_STORE = 'playground.api-key'
// Rows of a table of the answer shown on the page; the raw answer below holds every row.
const MAX_ROWS = 120
const MAX_VALUE_TEXT = 2000

const $ = (selector) => document.querySelector(selector)

/** An element with attributes and children (text or nodes); `on*` attributes become listeners. */
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value)
    else if (name === 'class') node.className = value
    else node.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue
    node.append(child instanceof Node ? child : String(child))
  }
  return node
}

// ---- the key -------------------------------------------------------------------------------

function currentKey() {
  return $('#api-key').value.trim()
}

function setUpKey() {
  const input = $('#api-key')
  input.value = sessionStorage.getItem(KEY_STORE) ?? ''
  input.addEventListener('input', () => {
    if (input.value.trim()) sessionStorage.setItem(KEY_STORE, input.value.trim())
    else sessionStorage.removeItem(KEY_STORE)
  })
  $('#forget-key').addEventListener('click', () => {
    input.value = ''
    sessionStorage.removeItem(KEY_STORE)
  })
}

// ---- the operations, from the OpenAPI document ---------------------------------------------

/** Each POST operation of the document with its suite (its tag), request schema and example. */
function operationsOf(doc) {
  const resolve = (schema) => {
    const ref = schema?.$ref
    return ref ? doc.components.schemas[ref.replace('#/components/schemas/', '')] : schema
  }
  const operations = []
  for (const [path, item] of Object.entries(doc.paths)) {
    const op = item.post
    // POST /batch takes JSON Lines of other operations' bodies: it has no form of its own.
    if (!op || !op.requestBody?.content?.['application/json']) continue
    const content = op.requestBody.content['application/json']
    operations.push({
      id: op.operationId,
      path,
      suite: op.tags?.[0] ?? 'other',
      summary: op.summary ?? '',
      description: op.description ?? '',
      schema: resolve(content.schema) ?? { properties: {} },
      example: content.example ?? {},
      explain: (op.parameters ?? []).some((p) => p.name === 'explain' && p.in === 'query'),
    })
  }
  const suites = (doc.tags ?? []).map((t) => t.name)
  const rank = (suite) => (suites.includes(suite) ? suites.indexOf(suite) : suites.length)
  return operations.sort((a, b) => rank(a.suite) - rank(b.suite) || a.path.localeCompare(b.path))
}

function fillPicker(operations) {
  const select = $('#operation')
  const groups = new Map()
  for (const op of operations) {
    if (!groups.has(op.suite)) groups.set(op.suite, el('optgroup', { label: op.suite }))
    groups.get(op.suite).append(el('option', { value: op.id }, `${op.path}: ${op.summary}`))
  }
  select.append(...groups.values())
}

// ---- the form, from the request schema -----------------------------------------------------

/** The one type of a property (a nullable type is its other type), or undefined where it has none. */
function typeOf(schema) {
  const types = [schema.type].flat().filter((t) => t && t !== 'null')
  return types.length === 1 ? types[0] : undefined
}

/** A schema's enum, without the lower-case twin of a code also listed in upper case (state codes). */
function choicesOf(schema) {
  if (!Array.isArray(schema.enum)) return undefined
  const seen = new Set()
  return schema.enum.filter((value) => {
    const folded = typeof value === 'string' ? value.toUpperCase() : JSON.stringify(value)
    if (seen.has(folded)) return false
    seen.add(folded)
    return true
  })
}

/** A list field's schema with the allowed values of its items, which a manifest may declare in an `allOf` beside the field. */
function withItemChoices(schema, name, field) {
  const declared = [field, ...(schema.allOf ?? []).map((part) => part.properties?.[name])].map((f) => f?.items?.enum).find(Array.isArray)
  return declared ? { ...field, itemChoices: declared } : field
}

/** The control of one top-level field: a select, an input or a JSON text area; and how to read it. */
function fieldFor(name, schema, required, example) {
  const id = `field-${name}`
  const type = typeOf(schema)
  const choices = choicesOf(schema)
  const given = example !== undefined
  let control
  let read
  if (choices) {
    control = el('select', { id, name },
      el('option', { value: '' }, required ? '(choose)' : '(not sent)'),
      choices.map((c) => el('option', { value: JSON.stringify(c), selected: given && JSON.stringify(example) === JSON.stringify(c) }, String(c))))
    read = () => (control.value === '' ? undefined : JSON.parse(control.value))
  } else if (type === 'boolean') {
    control = el('select', { id, name },
      el('option', { value: '' }, required ? '(choose)' : '(not sent)'),
      el('option', { value: 'true', selected: example === true }, 'true'),
      el('option', { value: 'false', selected: example === false }, 'false'))
    read = () => (control.value === '' ? undefined : control.value === 'true')
  } else if (type === 'string' && (String(example ?? '').includes('\n') || String(example ?? '').length > 120 || (schema.maxLength ?? 0) > 1000)) {
    // A long text (terms of service to analyse): lines kept as typed.
    control = el('textarea', { id, name, rows: 8 })
    control.value = given ? String(example) : ''
    read = () => (control.value.trim() === '' ? undefined : control.value)
  } else if (type === 'number' || type === 'integer' || type === 'string') {
    const placeholder = schema.default !== undefined ? `default: ${schema.default}` : schema.format === 'date' ? 'YYYY-MM-DD' : ''
    control = el('input', { id, name, type: 'text', inputmode: type === 'string' ? undefined : 'decimal', placeholder, value: given ? String(example) : undefined })
    read = () => {
      const text = control.value.trim()
      if (text === '') return undefined
      if (type === 'string') return control.value
      // A figure that is not a number is sent as typed: the service's 400 names the field.
      const n = Number(text)
      return Number.isFinite(n) ? n : text
    }
  } else {
    // Objects, arrays and anything with several types: JSON, checked here before it is sent.
    control = el('textarea', { id, name, rows: given ? Math.min(14, JSON.stringify(example, null, 2).split('\n').length) : 3, spellcheck: 'false', class: 'json' })
    control.value = given ? JSON.stringify(example, null, 2) : ''
    read = () => {
      const text = control.value.trim()
      if (text === '') return undefined
      try {
        return JSON.parse(text)
      } catch (error) {
        throw new FieldError(name, `is not valid JSON (${error.message})`)
      }
    }
  }
  const kind = [type ?? 'JSON', schema.format, type === 'array' ? 'as JSON' : type === 'object' ? 'as JSON' : undefined].filter(Boolean).join(', ')
  const row = el('div', { class: 'field', 'data-field': name },
    el('label', { for: id }, el('code', {}, name), required ? el('span', { class: 'required', title: 'required' }, ' *') : null, el('span', { class: 'kind' }, ` ${kind}`)),
    control,
    schema.description ? el('p', { class: 'description' }, schema.description) : null,
    schema.itemChoices ? el('p', { class: 'description' }, 'Each item one of: ', schema.itemChoices.map((c, i) => [i ? ', ' : '', el('code', {}, JSON.stringify(c))])) : null,
    el('p', { class: 'problem', hidden: true }))
  return { name, row, read }
}

class FieldError extends Error {
  constructor(field, message) {
    super(`${field} ${message}`)
    this.field = field
  }
}

// ---- one operation: its form, its call, its answer ------------------------------------------

function showOperation(op) {
  const view = $('#operation-view')
  const properties = op.schema.properties ?? {}
  const required = new Set(op.schema.required ?? [])
  const fields = Object.entries(properties).map(([name, schema]) => fieldFor(name, withItemChoices(op.schema, name, schema), required.has(name), op.example[name]))
  const explain = op.explain ? el('input', { type: 'checkbox', id: 'explain', checked: true }) : null
  const submit = el('button', { type: 'submit', id: 'submit' }, 'Calculate')
  const form = el('form', { id: 'request', 'data-operation': op.id, novalidate: true },
    fields.map((f) => f.row),
    el('div', { class: 'actions' },
      submit,
      explain ? el('label', { class: 'explain' }, explain, ' with the explanation (', el('code', {}, 'explain=true'), ')') : null,
      el('button', { type: 'button', onclick: () => showOperation(op) }, 'Reset to the example')))
  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    for (const p of form.querySelectorAll('.problem')) p.hidden = true
    const body = {}
    try {
      for (const f of fields) {
        const value = f.read()
        if (value !== undefined) body[f.name] = value
      }
    } catch (error) {
      if (!(error instanceof FieldError)) throw error
      markField(form, error.field, error.message)
      return
    }
    submit.disabled = true
    try {
      await call(op, body, explain?.checked ?? false, form)
    } finally {
      submit.disabled = false
    }
  })
  view.replaceChildren(
    el('h2', {}, op.summary),
    el('p', { class: 'path' }, el('code', {}, `POST ${op.path}`), ' · ', el('code', {}, op.id), ' · ', op.suite),
    el('details', { class: 'about' }, el('summary', {}, 'What it computes, and what it will not'), el('div', { class: 'text' }, op.description)),
    form)
  $('#answer').replaceChildren()
}

function markField(form, field, message) {
  const name = String(field ?? '').split(/[.[]/)[0]
  const row = form.querySelector(`.field[data-field="${CSS.escape(name)}"]`)
  const problem = row?.querySelector('.problem')
  if (!problem) return false
  problem.textContent = message
  problem.hidden = false
  return true
}

/** POST a body to one of this service's paths with the pasted key; the answer parsed where it is JSON. */
async function send(path, body, explain) {
  const headers = { 'content-type': 'application/json' }
  const key = currentKey()
  if (key) headers['x-api-key'] = key
  const response = await fetch(path + (explain ? '?explain=true' : ''), { method: 'POST', headers, body: JSON.stringify(body) })
  const text = await response.text()
  try {
    return { response, payload: JSON.parse(text) }
  } catch {
    return { response, payload: text }
  }
}

// Each call counts up: a chart still making calls for an older answer stops when a newer one is asked.
let calls = 0

async function call(op, body, explain, form) {
  const answer = $('#answer')
  const generation = ++calls
  answer.replaceChildren(el('p', { class: 'status pending' }, `POST ${op.path}…`))
  let sent
  const started = performance.now()
  try {
    sent = await send(op.path, body, explain)
  } catch (error) {
    answer.replaceChildren(el('p', { class: 'status error' }, `The call failed: ${error.message}`))
    return
  }
  const { response, payload } = sent
  const ms = Math.round(performance.now() - started)
  const status = el('p', { class: `status ${response.ok ? 'ok' : 'error'}`, id: 'status', 'data-status': response.status }, `${response.status} ${response.statusText} · ${ms} ms`)
  if (!response.ok || typeof payload !== 'object' || payload === null || !payload.result) {
    answer.replaceChildren(status, errorView(payload, response.status, form), rawView(payload))
    return
  }
  answer.replaceChildren(status, ...envelopeView(payload), rawView(payload))
  drawChart({ op, body, current: () => generation === calls }, payload, answer)
}

function errorView(payload, status, form) {
  const error = payload?.error
  if (!error) return el('pre', { class: 'raw' }, typeof payload === 'string' ? payload : JSON.stringify(payload, null, 2))
  for (const d of error.details ?? []) markField(form, d.field, d.message)
  return el('div', { class: 'error-body' },
    el('p', {}, el('code', {}, error.code), ': ', error.message),
    status === 401 ? el('p', { class: 'hint' }, 'Paste a key above (keys are issued with npm run keys).') : null,
    (error.details ?? []).length ? el('ul', {}, error.details.map((d) => el('li', {}, el('code', {}, d.field), ' ', d.message))) : null)
}

// ---- the answer ----------------------------------------------------------------------------

function envelopeView(envelope) {
  const { notes, explanation, ...figures } = envelope.result
  const links = citationLinks(envelope)
  return [
    el('h3', {}, 'Figures'),
    el('div', { id: 'figures' }, valueView(figures)),
    el('p', { class: 'meta' }, `Data as of ${envelope.data_as_of} · formula version ${envelope.formula_version} · tier ${envelope.tier}`),
    Array.isArray(notes) && notes.length ? el('div', { id: 'notes' }, el('h3', {}, 'Notes'), el('ul', {}, notes.map((n) => el('li', {}, typeof n === 'string' ? n : JSON.stringify(n))))) : null,
    el('div', { id: 'citations' }, el('h3', {}, 'Citations'),
      el('ol', {}, (envelope.citations ?? []).map((title) => el('li', {}, links.has(title) ? el('a', { href: links.get(title), target: '_blank', rel: 'noopener noreferrer' }, title) : title)))),
    Array.isArray(explanation) ? explanationView(explanation) : null,
  ].filter(Boolean)
}

/** The address of each cited title that the answer itself gives somewhere (`{title, href}`). */
function citationLinks(envelope) {
  const links = new Map()
  const walk = (value) => {
    if (Array.isArray(value)) return value.forEach(walk)
    if (!value || typeof value !== 'object') return
    if (typeof value.title === 'string' && typeof value.href === 'string' && /^https?:\/\//.test(value.href)) links.set(value.title, value.href)
    Object.values(value).forEach(walk)
  }
  walk(envelope.result)
  return links
}

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 10 })

// A year or an age is written as it is (2026, not 2,026).
const PLAIN = /year|age|month|day|divisor|count|number|id$/i

function scalarView(value, key = '') {
  if (value === null) return el('span', { class: 'null' }, 'null')
  if (typeof value === 'number') return el('span', { class: 'number' }, PLAIN.test(key) ? String(value) : numberFormat.format(value))
  if (typeof value === 'boolean') return el('span', { class: 'boolean' }, String(value))
  return el('span', { class: 'text' }, String(value))
}

const isScalar = (v) => v === null || typeof v !== 'object'

/** A figure: a scalar, a list, a table of a list of records, or a two-column table of a record. */
function valueView(value, key = '') {
  if (isScalar(value)) return scalarView(value, key)
  if (Array.isArray(value)) {
    if (value.length === 0) return el('span', { class: 'null' }, '(none)')
    if (value.every(isScalar)) return el('ul', { class: 'list' }, value.slice(0, MAX_ROWS).map((v) => el('li', {}, scalarView(v, key))), more(value.length))
    if (value.every((v) => v && typeof v === 'object' && !Array.isArray(v))) {
      const columns = [...new Set(value.flatMap((row) => Object.keys(row)))]
      return el('div', { class: 'scroll' }, el('table', { class: 'records' },
        el('thead', {}, el('tr', {}, columns.map((c) => el('th', {}, c)))),
        el('tbody', {}, value.slice(0, MAX_ROWS).map((row) => el('tr', {}, columns.map((c) => el('td', {}, row[c] === undefined ? '' : isScalar(row[c]) ? scalarView(row[c], c) : short(row[c]))))))),
      more(value.length))
    }
    return el('pre', { class: 'raw' }, short(value))
  }
  return el('table', { class: 'figures' }, el('tbody', {}, Object.entries(value).map(([k, v]) => el('tr', {}, el('th', { scope: 'row' }, k), el('td', {}, valueView(v, k))))))
}

function more(count) {
  return count > MAX_ROWS ? el('p', { class: 'more' }, `… ${count - MAX_ROWS} more in the raw answer below`) : null
}

function short(value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT)}… (${text.length} characters)` : text
}

/** The explanation as a collapsible list: a step's parameters and citations open when asked. */
function explanationView(steps) {
  const list = el('ol', { class: 'steps' }, steps.map((step) => {
    const detail = el('details', {}, el('summary', {}, el('code', {}, step.step), ` = ${short(JSON.stringify(step.value) ?? 'undefined').slice(0, 120)}`, el('span', { class: 'rule-set' }, ` (${step.rule_set})`)))
    detail.addEventListener('toggle', () => {
      if (!detail.open || detail.dataset.filled) return
      detail.dataset.filled = 'yes'
      detail.append(
        step.label ? el('p', {}, step.label) : null,
        el('pre', { class: 'raw' }, short(JSON.stringify(step.value, null, 1) ?? '')),
        (step.parameters ?? []).length ? el('table', { class: 'records' }, el('thead', {}, el('tr', {}, el('th', {}, 'parameter'), el('th', {}, 'in force from'), el('th', {}, 'value'))),
          el('tbody', {}, step.parameters.map((p) => el('tr', {}, el('td', {}, el('code', {}, p.id)), el('td', {}, p.effective_date), el('td', {}, p.value ?? ''))))) : null,
        (step.citations ?? []).length ? el('ul', { class: 'cites' }, step.citations.map((c) => el('li', {}, c))) : null)
    })
    return el('li', {}, detail)
  }))
  return el('details', { id: 'explanation' }, el('summary', {}, `Explanation: ${steps.length} steps`), list)
}

function rawView(payload) {
  const pre = el('pre', { class: 'raw' })
  const details = el('details', { id: 'raw' }, el('summary', {}, 'Raw answer (JSON)'), pre)
  details.addEventListener('toggle', () => {
    if (details.open && !pre.textContent) pre.textContent = typeof payload === 'string' ? payload : JSON.stringify(payload, null, 2)
  })
  return details
}

// ---- charts --------------------------------------------------------------------------------
// Each chart is found by the shape of the answer, not by the operation id: an endpoint's second
// path (estate-planning/grat beside estate/calculate-grat) answers the same and gets the same chart.

const COLORS = ['#1f5fa8', '#c8553d', '#2a9d8f', '#8e6bbf', '#e9a23b']
const WIDTH = 820
const HEIGHT = 320
const money = (v) => (v === null || v === undefined ? '' : `$${numberFormat.format(Math.round(v))}`)
const years = (months) => `${Math.floor(months / 12)} y ${months % 12} m`

const CHARTS = [
  { name: 'qtip-curve', finds: qtipCurve },
  { name: 'claiming-heat-map', finds: claimingHeatMap },
  { name: 'ira-schedule', finds: iraSchedule },
  { name: 'grat-remainder', finds: gratRemainder },
  { name: 'minimum-wage-timeline', finds: minimumWageTimeline },
]

function drawChart(asked, envelope, answer) {
  for (const chart of CHARTS) {
    const draw = chart.finds(envelope.result, asked)
    if (!draw) continue
    const box = el('figure', { class: 'chart', id: 'chart', 'data-chart': chart.name })
    // The chart goes first: it is what a person looks at before the figures.
    answer.querySelector('#figures').before(box)
    draw(box)
    return
  }
}

function caption(box, text) {
  box.append(el('figcaption', {}, text))
}

function linePlot(box, { title, x, series, xLabel, yLabel, xTime = false, xPad = 0, xWhole = false, extraAxis, draw }) {
  const options = {
    title,
    width: WIDTH,
    height: HEIGHT,
    // Bars at the ends need half a step of room on each side.
    scales: { x: { time: xTime, ...(xPad ? { range: (u, lo, hi) => [lo - xPad, hi + xPad] } : {}) }, ...(extraAxis ? { [extraAxis.scale]: {} } : {}) },
    series: [{ label: xLabel }, ...series],
    axes: [
      // Years are whole numbers, written without a thousands separator.
      xWhole ? { label: xLabel, incrs: [1, 2, 5, 10, 20, 50], values: (u, ticks) => ticks.map(String) } : { label: xLabel },
      { label: yLabel, size: 100, values: (u, ticks) => ticks.map(money) },
      ...(extraAxis ? [{ scale: extraAxis.scale, side: 1, label: extraAxis.label, size: 100, grid: { show: false }, values: (u, ticks) => ticks.map(money) }] : []),
    ],
    hooks: draw ? { draw: [draw] } : {},
  }
  return new window.uPlot(options, [x, ...series.map((s) => s.data)], box)
}

/** Total tax by the fraction of the QTIP property elected, its parts and the best fraction. */
function qtipCurve(result) {
  const curve = result.curve
  if (!Array.isArray(curve) || !curve.length || curve[0].fraction === undefined || curve[0].total_tax === undefined) return undefined
  return (box) => {
    const sum = (...keys) => curve.map((p) => keys.reduce((s, k) => s + (p[k] ?? 0), 0))
    const best = result.best?.fraction
    linePlot(box, {
      title: 'Total estate tax by the fraction of the QTIP property elected',
      x: curve.map((p) => p.fraction),
      xLabel: 'fraction elected',
      yLabel: 'tax (USD)',
      series: [
        { label: 'total tax', stroke: COLORS[0], width: 2, value: (u, v) => money(v), data: sum('total_tax') },
        { label: 'at the first death', stroke: COLORS[1], value: (u, v) => money(v), data: sum('first_death_federal_tax', 'first_death_state_tax') },
        { label: 'at the second death', stroke: COLORS[2], value: (u, v) => money(v), data: sum('second_death_federal_tax', 'second_death_state_tax') },
      ],
      draw: best === undefined ? undefined : (u) => markX(u, best, `best ${best}`),
    })
    caption(box, `The least total tax is at ${best} of the QTIP property elected (${money(result.best?.total_tax)}).`)
  }
}

/** A dashed vertical line at x, labelled. */
function markX(u, x, label) {
  const ctx = u.ctx
  const left = u.valToPos(x, 'x', true)
  ctx.save()
  ctx.strokeStyle = '#333'
  ctx.setLineDash([5, 4])
  ctx.beginPath()
  ctx.moveTo(left, u.bbox.top)
  ctx.lineTo(left, u.bbox.top + u.bbox.height)
  ctx.stroke()
  ctx.fillStyle = '#333'
  ctx.font = `${12 * devicePixelRatio}px sans-serif`
  ctx.fillText(label, left + 4 * devicePixelRatio, u.bbox.top + 14 * devicePixelRatio)
  ctx.restore()
}

/**
 * The expected present value of the household's benefits for each pair of whole claiming years, as a
 * heat map. The search's own surface (every pair of months it valued) is not in the answer, and the
 * explanation shows only a summary of so long a list; so the page values the grid itself: one call per
 * pair with both claiming ages fixed (`claimed_age_months`), four at a time. The ages are the schema's
 * range (its minimum and maximum), a year apart; the first a month after the minimum, a month any
 * claimant can choose.
 */
function claimingHeatMap(result, { op, body, current }) {
  const spouse = result.best?.spouse_claim_age_months
  if (spouse === undefined || spouse === null || !body.spouse || !op?.schema) return undefined
  const range = op.schema.properties?.person?.properties?.claimed_age_months
  if (typeof range?.minimum !== 'number' || typeof range?.maximum !== 'number') return undefined
  const ages = [range.minimum + 1]
  for (let age = range.minimum + 12; age <= range.maximum; age += 12) ages.push(age)
  const grid = ages.flatMap((a) => ages.map((b) => ({ a, b })))
  return async (box) => {
    const progress = el('p', { class: 'readout' }, `Valuing ${grid.length} pairs of claiming ages…`)
    box.append(progress)
    const pairs = []
    let next = 0
    const worker = async () => {
      while (next < grid.length && current()) {
        const { a, b } = grid[next++]
        const { response, payload } = await send(op.path, { ...body, person: { ...body.person, claimed_age_months: a }, spouse: { ...body.spouse, claimed_age_months: b } }, false)
        // A pair that cannot be claimed (an age already past on the calculation date) stays blank.
        if (response.ok) pairs.push({ a, b, value: payload.result.best.expected_present_value })
        progress.textContent = `Valuing pairs of claiming ages: ${pairs.length} of ${grid.length}…`
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()])
    if (!current()) return
    progress.remove()
    if (!pairs.length) return caption(box, 'No pair of whole claiming years could be valued for these people.')
    const top = pairs.reduce((x, y) => (y.value > x.value ? y : x))
    heatMap(box, ages, pairs, top)
    caption(box, `Each cell is one call with both claiming ages fixed; the best of these (outlined) is the person at ${years(top.a)} and the spouse at ${years(top.b)}: ${money(top.value)}. The search by month found the person at ${years(result.best.person_claim_age_months)} and the spouse at ${years(spouse)}: ${money(result.best.expected_present_value)}.`)
  }
}

// Viridis, sampled: dark for the least value, yellow for the most.
const RAMP = ['#440154', '#482878', '#3e4989', '#31688e', '#26828e', '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725']

/** The colour at t (0 to 1) along the ramp, blended between its two nearest stops. */
function rampColor(t) {
  const at = Math.min(1, Math.max(0, t)) * (RAMP.length - 1)
  const i = Math.min(RAMP.length - 2, Math.floor(at))
  const rgb = (hex) => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16))
  const [from, to] = [rgb(RAMP[i]), rgb(RAMP[i + 1])]
  return `rgb(${from.map((c, k) => Math.round(c + (to[k] - c) * (at - i))).join(',')})`
}

function heatMap(box, ages, pairs, best) {
  const as = ages
  const bs = ages
  const values = pairs.map((p) => p.value)
  const min = Math.min(...values)
  const max = Math.max(...values)
  const cell = Math.floor(450 / as.length)
  const margin = { left: 100, top: 30, right: 120, bottom: 50 }
  const width = margin.left + as.length * cell + margin.right
  const height = margin.top + bs.length * cell + margin.bottom
  const ratio = window.devicePixelRatio || 1
  const canvas = el('canvas', { width: width * ratio, height: height * ratio, class: 'heat-map' })
  canvas.style.width = `${width}px`
  canvas.style.height = `${height}px`
  const ctx = canvas.getContext('2d')
  ctx.scale(ratio, ratio)
  ctx.font = '12px sans-serif'
  ctx.fillStyle = '#222'
  ctx.fillText('Expected present value of the household’s benefits, by claiming age', margin.left, 16)
  const ai = new Map(as.map((a, i) => [a, i]))
  const bi = new Map(bs.map((b, i) => [b, i]))
  // The person's age across, the spouse's up (the youngest claim at the bottom left).
  const xOf = (a) => margin.left + ai.get(a) * cell
  const yOf = (b) => margin.top + (bs.length - 1 - bi.get(b)) * cell
  for (const p of pairs) {
    ctx.fillStyle = rampColor(max === min ? 1 : (p.value - min) / (max - min))
    ctx.fillRect(xOf(p.a), yOf(p.b), cell, cell)
  }
  ctx.strokeStyle = '#fff'
  ctx.lineWidth = 3
  ctx.strokeRect(xOf(best.a) + 2, yOf(best.b) + 2, cell - 4, cell - 4)
  ctx.fillStyle = '#222'
  ctx.textAlign = 'center'
  const label = (months) => (months % 12 ? years(months) : String(months / 12))
  for (const a of as) ctx.fillText(label(a), xOf(a) + cell / 2, margin.top + bs.length * cell + 16)
  ctx.fillText('person’s claiming age (years)', margin.left + (as.length * cell) / 2, margin.top + bs.length * cell + 36)
  ctx.textAlign = 'right'
  for (const b of bs) ctx.fillText(label(b), margin.left - 8, yOf(b) + cell / 2 + 4)
  ctx.save()
  ctx.translate(18, margin.top + (bs.length * cell) / 2)
  ctx.rotate(-Math.PI / 2)
  ctx.textAlign = 'center'
  ctx.fillText('spouse’s claiming age (years)', 0, 0)
  ctx.restore()
  // The legend: the ramp from the least value to the most.
  const lx = margin.left + as.length * cell + 20
  const steps = RAMP.length
  const lh = (bs.length * cell) / steps
  RAMP.forEach((color, i) => {
    ctx.fillStyle = color
    ctx.fillRect(lx, margin.top + (steps - 1 - i) * lh, 16, lh)
  })
  ctx.fillStyle = '#222'
  ctx.textAlign = 'left'
  ctx.fillText(money(max), lx + 20, margin.top + 10)
  ctx.fillText(money(min), lx + 20, margin.top + bs.length * cell)
  const readout = el('p', { class: 'readout' }, 'Point at a cell to read its ages and value.')
  const byCell = new Map(pairs.map((p) => [`${p.a}:${p.b}`, p]))
  canvas.addEventListener('mousemove', (event) => {
    const rect = canvas.getBoundingClientRect()
    const i = Math.floor((event.clientX - rect.left - margin.left) / cell)
    const j = bs.length - 1 - Math.floor((event.clientY - rect.top - margin.top) / cell)
    const p = byCell.get(`${as[i]}:${bs[j]}`)
    if (p) readout.textContent = `Person claims at ${years(p.a)}, spouse at ${years(p.b)}: ${money(p.value)}`
  })
  box.append(canvas, readout)
}

/** The inherited IRA's minimum distribution each year (bars) and the projected balance (line). */
function iraSchedule(result) {
  const schedule = result.schedule
  if (!Array.isArray(schedule) || !schedule.length || schedule[0].minimum_distribution === undefined || schedule[0].year === undefined) return undefined
  return (box) => {
    linePlot(box, {
      title: 'Inherited IRA: the minimum distribution and the projected balance by year',
      x: schedule.map((r) => r.year),
      xLabel: 'year',
      xPad: 0.5,
      xWhole: true,
      yLabel: 'distribution (USD)',
      extraAxis: { scale: 'balance', label: 'balance (USD)' },
      series: [
        { label: 'minimum distribution', fill: `${COLORS[0]}cc`, stroke: COLORS[0], paths: window.uPlot.paths.bars({ size: [0.6, 40] }), points: { show: false }, value: (u, v) => money(v), data: schedule.map((r) => r.minimum_distribution) },
        { label: 'projected year-end balance', scale: 'balance', stroke: COLORS[1], width: 2, value: (u, v) => money(v), data: schedule.map((r) => r.projected_year_end_balance ?? null) },
      ],
    })
    caption(box, `${result.regime_description ?? ''} The whole account is out by ${result.final_deadline ?? result.final_year}.`)
  }
}

/** A GRAT's (or CLAT's) trust value after each annuity payment: what is left for the remainder. */
function gratRemainder(result) {
  const payments = result.annuity?.payments
  if (!Array.isArray(payments) || !payments.length || payments[0].projected_trust_value_after_payment === undefined) return undefined
  return (box) => {
    const x = [0, ...payments.map((p) => p.year)]
    linePlot(box, {
      title: `${String(result.trust_type ?? 'trust').toUpperCase()}: the trust's value after each annuity payment`,
      x,
      xLabel: 'year of the term',
      xPad: 0.5,
      xWhole: true,
      yLabel: 'USD',
      series: [
        { label: 'annuity payment', fill: `${COLORS[1]}bb`, stroke: COLORS[1], paths: window.uPlot.paths.bars({ size: [0.5, 60] }), points: { show: false }, value: (u, v) => money(v), data: [null, ...payments.map((p) => p.annuity_payment)] },
        { label: 'trust value (the remainder at the end)', stroke: COLORS[0], width: 2, value: (u, v) => money(v), data: [result.initial_value ?? null, ...payments.map((p) => p.projected_trust_value_after_payment)] },
      ],
    })
    const growth = result.projection?.growth_rate
    caption(box, `Projected at ${growth ?? 'the assumed'} growth a year; the remainder beneficiaries receive ${money(result.projection?.remainder_at_end_of_term ?? payments.at(-1).projected_trust_value_after_payment)} at the end of the term.`)
  }
}

/**
 * A state's general minimum wage through time, as steps: from the upcoming changes (each change's
 * old value and date, then its new one) or from a lookup (the rate in force and its next change).
 */
function minimumWageTimeline(result) {
  const byJurisdiction = new Map()
  const add = (jurisdiction, date, value) => {
    if (!date || typeof value !== 'number') return
    if (!byJurisdiction.has(jurisdiction)) byJurisdiction.set(jurisdiction, new Map())
    byJurisdiction.get(jurisdiction).set(date, value)
  }
  let end
  if (Array.isArray(result.changes)) {
    for (const c of result.changes) {
      if (c.name !== 'minimum_wage') continue
      add(c.jurisdiction, c.old_effective, c.old_value)
      add(c.jurisdiction, c.effective, c.new_value)
    }
    end = result.through
  } else if (Array.isArray(result.topics) && result.minimum_wage) {
    const rule = result.topics.find((t) => t.topic === 'minimum_wage')?.rules.find((r) => r.name === 'minimum_wage')
    add(result.jurisdiction, result.minimum_wage.effective, result.minimum_wage.hourly)
    if (rule?.next_change) add(result.jurisdiction, rule.next_change.effective, rule.next_change.value)
    end = result.date
  } else return undefined
  if (byJurisdiction.size === 0) return undefined
  return (box) => {
    const choose = el('select', { id: 'chart-jurisdiction' }, [...byJurisdiction.keys()].sort().map((j) => el('option', { value: j }, j)))
    const plotBox = el('div')
    const draw = () => {
      const points = [...byJurisdiction.get(choose.value)].sort(([d1], [d2]) => d1.localeCompare(d2))
      const seconds = (date) => Date.parse(`${date}T00:00:00Z`) / 1000
      const x = points.map(([d]) => seconds(d))
      const y = points.map(([, v]) => v)
      // The last rate holds to the end of the window (or a year on, where the window ends sooner).
      const last = Math.max(end ? seconds(end) : 0, x.at(-1) + 365 * 86400)
      x.push(last)
      y.push(y.at(-1))
      plotBox.replaceChildren()
      new window.uPlot({
        title: `Minimum wage in ${choose.value} (general rate, dollars an hour)`,
        width: WIDTH,
        height: HEIGHT,
        scales: { x: { time: true }, y: { range: (u, lo, hi) => [Math.max(0, Math.floor(lo - 1)), Math.ceil(hi + 1)] } },
        series: [{ label: 'date' }, { label: `${choose.value} minimum wage`, stroke: COLORS[0], width: 2, fill: `${COLORS[0]}22`, paths: window.uPlot.paths.stepped({ align: 1 }), value: (u, v) => (v === null ? '' : `$${v.toFixed(2)}`) }],
        axes: [{}, { label: 'USD an hour', size: 70, values: (u, ticks) => ticks.map((t) => `$${t.toFixed(2)}`) }],
      }, [x, y], plotBox)
    }
    choose.addEventListener('change', draw)
    box.append(el('label', { class: 'chart-pick' }, 'Jurisdiction ', choose), plotBox)
    draw()
    caption(box, 'Each step is a dated value of the jurisdiction’s file; local (city, county) rates are not shown.')
  }
}

// ---- start ---------------------------------------------------------------------------------

async function start() {
  setUpKey()
  let doc
  try {
    const response = await fetch('/openapi.json')
    doc = await response.json()
  } catch (error) {
    $('#loading').textContent = `Could not read /openapi.json: ${error.message}`
    return
  }
  const operations = operationsOf(doc)
  fillPicker(operations)
  const byId = new Map(operations.map((op) => [op.id, op]))
  const select = $('#operation')
  const show = (id) => {
    const op = byId.get(id) ?? operations[0]
    select.value = op.id
    showOperation(op)
  }
  select.addEventListener('change', () => {
    history.replaceState(null, '', `#${select.value}`)
    show(select.value)
  })
  show(decodeURIComponent(location.hash.slice(1)))
  document.body.dataset.ready = 'yes'
}

start()
