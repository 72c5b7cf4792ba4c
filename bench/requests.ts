/**
 * @module The requests the load bench and the soak send: one per endpoint class of issue 5, each a
 * realistic case (the figures are caller inputs, not law), plus the invalid requests the soak mixes in.
 */

export interface BenchRequest {
  /** The endpoint class, as the bench table prints it. */
  name: string
  path: string
  body: Record<string, unknown>
  /** The target the issue sets for this class, if any: ratio of the bare echo's req/s, p99 multiple. */
  target?: { minRatio: number; maxP99Multiple: number }
  /**
   * A whole-dollar field that grows by one with each request sent, so that no two bodies are alike
   * and none is answered from the service's memory of answers (server/answer-memo.ts): the class
   * measures the evaluation itself.
   */
  vary?: string
}

const STATE_TARGET = { minRatio: 0.7, maxP99Multiple: 1.5 }

export const BENCH_REQUESTS: BenchRequest[] = [
  {
    name: 'state: NY near its cliff',
    path: '/estate/calculate-state-tax',
    body: { state: 'NY', tax_year: 2026, gross_estate: 7650000 },
    target: STATE_TARGET,
  },
  {
    name: 'state: NY, every estate new',
    path: '/estate/calculate-state-tax',
    body: { state: 'NY', tax_year: 2026, gross_estate: 7650000 },
    target: STATE_TARGET,
    vary: 'gross_estate',
  },
  {
    name: 'state: PA, 5 beneficiaries',
    path: '/estate/calculate-state-tax',
    body: {
      state: 'PA',
      tax_year: 2026,
      gross_estate: 2000000,
      filing_status: 'married',
      beneficiaries: [
        { relationship: 'spouse', inheritance_amount: 1000000 },
        { relationship: 'child', inheritance_amount: 250000 },
        { relationship: 'child', inheritance_amount: 250000 },
        { relationship: 'sibling', inheritance_amount: 100000 },
        { relationship: 'unrelated', inheritance_amount: 40000 },
      ],
    },
    target: STATE_TARGET,
  },
  {
    name: 'federal, domicile MA',
    path: '/estate/calculate-federal-tax',
    body: { gross_estate: 20000000, state_of_domicile: 'MA', deductions: { charitable_deduction: 500000, debts_and_expenses: 250000 } },
  },
  {
    name: 'inherited IRA schedule',
    path: '/inherited-ira/schedule',
    body: { owner_date_of_birth: '1976-04-20', owner_date_of_death: '2024-10-01', beneficiary_type: 'child', beneficiary_date_of_birth: '2014-02-10', balance: 250000 },
  },
  {
    name: 'annual gifts, 3 donees',
    path: '/estate/optimize-annual-gifts',
    body: {
      tax_year: 2026,
      donees: [
        { name: 'Ann', relationship: 'child', outright_gifts: 15000 },
        { name: 'Ben', relationship: 'child', outright_gifts: 25000 },
        { name: 'Cal', relationship: 'grandchild', outright_gifts: 40000 },
      ],
    },
  },
  {
    name: 'GRAT, zeroed-out',
    path: '/estate/calculate-grat',
    body: { trust_type: 'grat', valuation_date: '2026-04-15', initial_value: 1000000, term_years: 2, growth_rate: 0.1 },
  },
  {
    name: 'QTIP optimizer (heavy)',
    path: '/estate/optimize-qtip-election',
    body: { state_of_domicile: 'NY', gross_estate: 20000000, surviving_spouse_estate: 5000000 },
  },
]

/** Invalid requests for the soak: each must get its 4xx, never a 5xx. */
export interface BadRequest {
  name: string
  method: 'POST' | 'GET' | 'PUT'
  path: string
  body?: string
  headers?: Record<string, string>
  /** Send no x-api-key, or this one instead of the valid key. */
  key?: string | null
}

export const BAD_REQUESTS: BadRequest[] = [
  { name: 'wrong type', method: 'POST', path: '/estate/calculate-state-tax', body: '{"state":"NY","tax_year":2026,"gross_estate":"lots"}' },
  { name: 'unknown field', method: 'POST', path: '/estate/calculate-federal-tax', body: '{"gross_estate":1,"state_of_domicile":"NY","spouse":true}' },
  { name: 'unsupported year', method: 'POST', path: '/estate/calculate-state-tax', body: '{"state":"NY","tax_year":2019,"gross_estate":1}' },
  { name: 'broken JSON', method: 'POST', path: '/estate/calculate-state-tax', body: '{"state":' },
  { name: 'not JSON', method: 'POST', path: '/estate/calculate-state-tax', body: 'state=NY', headers: { 'content-type': 'text/plain' } },
  { name: 'no key', method: 'POST', path: '/estate/calculate-state-tax', body: '{}', key: null },
  { name: 'wrong key', method: 'POST', path: '/estate/calculate-state-tax', body: '{}', key: 'kWrongKey123.not-the-secret-at-all-000' },
  { name: 'GET on a POST route', method: 'GET', path: '/estate/calculate-state-tax' },
  { name: 'no such path', method: 'POST', path: '/estate/nothing-here', body: '{}' },
  { name: 'bad MCP call', method: 'POST', path: '/mcp', body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculate_state_estate_tax","arguments":{"state":"XX"}}}', headers: { accept: 'application/json, text/event-stream' } },
]
