// The entity matcher: normalisation by the words table of tables/matching/entity.yaml, the two
// name measures, alias parts, and identifiers that decide.
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CompileError } from '../../../engine/compile/expression.js'
import { loadCatalog } from '../../../service/index.js'
import type { LookupEntry, TableEntry } from '../../../engine/data/tables.js'
import type { Value } from '../../../engine/model/types.js'
import { formula, show } from './formula.js'

const test = suite('engine/functions/matching')

const catalog = loadCatalog({ rulesDir: 'rules', tablesDir: 'tables' })
const words = catalog.tables.get('matching.entity.name_words')! as LookupEntry
const tables: Record<string, TableEntry> = { words }

type Match = Record<string, Value>
const match = (a: string, b: string, ids: Value = null, theirs: Value = null) =>
  formula('entity_match(words, a, b, ids, theirs)', { a, b, ids, theirs }, tables) as Match
const score = (a: string, b: string) => show(match(a, b).confidence!)

test('legal forms, accents, case, punctuation and & are normalised away', () => {
  const m = match('Novo Nordisk A/S', 'NOVO NORDISK, INC.')
  // The Danish A/S and the American Inc. are legal forms of different kinds: equal names, a lead (form_cap).
  assert.is(show(m.confidence!), '"0.97"')
  assert.is(score('Novo Nordisk A/S', 'NOVO NORDISK'), '"1"')
  assert.is(m.normalized_name, 'novo nordisk')
  assert.is(m.normalized_candidate, 'novo nordisk')
  assert.is(score('Société Générale S.A.', 'Societe Generale'), '"1"')
  assert.is(score('Johnson & Johnson', 'Johnson and Johnson Inc'), '"1"')
  assert.is(match('The Procter & Gamble Company', 'Procter and Gamble').normalized_name, 'procter and gamble')
})

test('a name split at dba/fka/aka: the best-matching part counts', () => {
  const m = match('Advita Ortho', 'Exactech, Inc. dba Advita Ortho')
  assert.is(show(m.confidence!), '"1"')
  assert.is(m.normalized_candidate, 'advita ortho')
  assert.ok((m.reasons as string[]).some((r) => /alias marker/.test(r)))
  assert.is(score('Exactech', 'Exactech, Inc. d/b/a Advita Ortho'), '"1"')
})

test('a subset of words is not a match: Jaro-Winkler on the sorted words pulls the token-set ratio down', () => {
  const m = match('Novo', 'Novo Nordisk Inc.')
  assert.is(show(m.token_set!), '"1"')
  assert.ok(Number(show(m.confidence!).replace(/"/g, '')) < 0.8, show(m.confidence!))
})

test('a misspelling scores high, a different word low, and the scores are exact decimals of 4 places', () => {
  const typo = Number(score('Exactec', 'Exactech Inc').replace(/"/g, ''))
  const other = Number(score('Acme Foods', 'Apex Pharma').replace(/"/g, ''))
  assert.ok(typo > 0.9, String(typo))
  assert.ok(other < 0.6, String(other))
  assert.match(score('Exactec', 'Exactech Inc'), /^"0\.\d{1,4}"$/)
})

test('identifiers decide: the same one is a match whatever the name, a different one is not', () => {
  const same = match('Acme Health', 'Zenith Medical Group', { npi: '1234567893' }, { npi: '1234567893', name: 'x' })
  assert.is(show(same.confidence!), '"1"')
  assert.is(same.identifier, 'matched')
  assert.equal(same.identifiers_matched, ['npi'])
  const differs = match('Acme Health', 'Acme Health LLC', { uei: 'ABC123DEF456' }, { uei: 'ZZZ999YYY888' })
  assert.is(show(differs.confidence!), '"0"')
  assert.is(differs.identifier, 'differs')
  assert.is(show(differs.name_score!), '"1"')
  // Case, spaces and dashes are not part of an identifier; an identifier the record lacks is not compared.
  assert.is(match('x y', 'a b', { licence: 'rn-12 345' }, { licence: 'RN12345' }).identifier, 'matched')
  const absent = match('Acme', 'Acme', { cage: '1ABC2' }, { cage: null })
  assert.is(absent.identifier, 'not_compared')
  assert.ok((absent.reasons as string[]).some((r) => /cage given, not in the record/.test(r)))
})

test('identifiers must be records, and the words table must be keyed by phrase', () => {
  assert.throws(() => match('a', 'b', 'npi 1' as Value, null), /must be a record/)
  const wrong: LookupEntry = { ...words, id: 'demo.wrong', keys: ['word'] }
  assert.throws(() => formula("entity_match(wrong, 'a', 'b')", {}, { wrong }), (e: unknown) => e instanceof CompileError && /keyed by \[phrase\]/.test((e as Error).message))
})

test('a legal form is the name as its first word; articles go wherever they stand', () => {
  assert.is(match('The Company', 'x').normalized_name, 'company')
  assert.is(match('Inc.', 'x').normalized_name, 'inc')
  assert.is(match('NV Nutrition, LLC', 'x').normalized_name, 'nv nutrition')
  assert.is(match('SAS Technologies, Inc d/b/a Save A Smoker', 'x').normalized_name, 'sas technology')
  assert.is(match('The Vapery LLC d/b/a the Vapery', 'x').normalized_name, 'vapery')
  assert.ok(Number(score('NV Nutrition, LLC', 'Orphic Nutrition').replace(/"/g, '')) < 0.9)
})

test('two legal names before an alias marker decide: a shared trade name of different owners is not a match', () => {
  const franchise = match('Alohma LLC d/b/a Kure CBD & Vape', 'JSS Retail, LLC, d/b/a Kure CBD & Vape')
  assert.ok(Number(show(franchise.confidence!).replace(/"/g, '')) < 0.7, show(franchise.confidence!))
  assert.ok((franchise.reasons as string[]).some((r) => /legal names before it compared/.test(r)))
  assert.is(score('Hims & Hers Health, Inc. dba Hers', 'Hims & Hers Health, Inc. dba Hims'), '"1"')
  assert.is(franchise.legal_name, 'alohma')
  assert.is(franchise.candidate_legal_name, 'jss retail')
  assert.is(match('Kure CBD & Vape', 'x').candidate_legal_name, 'x')
  // One side without an alias: its name may be either part of the other.
  assert.is(score('Kure CBD & Vape', 'JSS Retail, LLC, d/b/a Kure CBD & Vape'), '"1"')
})

test('names that are the same letters once spaces are removed are equal; "and Company" closing a name is a legal form', () => {
  const joined = match('Nice Cloud LLC d/b/a/ Nicecloud Vapor', 'Nicecloud LLC d/b/a Nicecloud Vapor')
  assert.is(show(joined.confidence!), '"1"')
  assert.ok((joined.reasons as string[]).some((r) => /equal once spaces are removed/.test(r)))
  assert.is(score('Juicemafia', 'Juice Mafia, Inc. dba Ecig-Works'), '"1"')
  assert.is(match('Eli Lilly and Company', 'Eli Lilly').normalized_name, 'eli lilly')
  assert.is(match('Fresenius Medical Care AG & Co. KGaA', 'x').normalized_name, 'fresenius medical care')
})

test('word order lowers the confidence a little (order_penalty): a possible match, not a match, and not lost', () => {
  const swapped = match('Smart Smoke, Inc.', 'Smoke Smart LLC')
  assert.is(show(swapped.confidence!), '"0.97"')
  assert.ok((swapped.reasons as string[]).some((r) => /another order/.test(r)))
  assert.is(score('Smith, John', 'John Smith'), '"0.97"')
  assert.is(score('John Smith', 'John Smith'), '"1"')
})

test('abbreviation families compare as one word (issue 32, item 1)', () => {
  for (const [a, b] of [
    ['Sun Pharma Industries', 'Sun Pharmaceutical Industries Ltd'],
    ['Intas Pharma', 'Intas Pharmaceuticals Limited'],
    ['Teva Pharms USA', 'Teva Pharmaceuticals U.S.A., Inc.'],
    ['Hikma Labs', 'Hikma Laboratories'],
    ['Acme Mfg Co', 'Acme Manufacturing Company'],
    ['Acme Intl', "Acme Int'l"],
    ['Acme Tech', 'Acme Technologies'],
    ['Acme Svcs', 'Acme Services'],
    ['Natl Dental Assn', "National Dental Ass'n"],
    ['Smith Bros', 'Smith Brothers'],
    ['Natl Health Ctr', 'National Health Centre'],
  ]) assert.is(score(a!, b!), '"1"', `${a} / ${b}`)
})

test('legal forms in full and abbreviated, in several languages (ISO 20275), are dropped (issue 32, item 8)', () => {
  for (const [a, b] of [
    ['Acme Limited Liability Company', 'Acme LLC'],
    ['Acme Gesellschaft mit beschränkter Haftung', 'Acme GmbH'],
    ['Acme Aktiengesellschaft', 'Acme AG'],
    ['Acme Société par actions simplifiée', 'Acme SAS'],
    ['Acme Società per azioni', 'Acme S.p.A.'],
    ['Acme Sociedad de Responsabilidad Limitada', 'Acme S.L.'],
    ['Acme S. de R.L. de C.V.', 'Acme'],
    ['Acme Spółka z ograniczoną odpowiedzialnością', 'Acme sp. z o.o.'],
    ['Acme Spolka z ograniczona odpowiedzialnoscia', 'Acme'],
    ['Acme Besloten Vennootschap', 'Acme B.V.'],
    ['Acme Osakeyhtiö', 'Acme Oy'],
    ['Acme Anpartsselskab', 'Acme ApS'],
    ['Acme s.r.o.', 'Acme'],
    ['Acme Kft.', 'Acme'],
    ['Acme Private Limited Company', 'Acme Pvt. Ltd.'],
    ['Acme Public Limited Company', 'Acme PLC'],
  ]) assert.is(score(a!, b!), '"1"', `${a} / ${b}`)
  assert.is(match('Acme Limited Liability Company', 'x').normalized_name, 'acme')
})

test('joined names (A/B) are each a name; a parent or affiliate named in a record is a lead only (issue 32, items 2 and 3)', () => {
  assert.is(score('Hospira', 'Pfizer/Hospira'), '"1"')
  assert.is(score('Pfizer', 'Pfizer / Hospira, Inc.'), '"1"')
  assert.is(match('Novo Nordisk A/S', 'x').normalized_name, 'novo nordisk')
  assert.is(score('Spectrum Laboratory Products', 'Spectrum Laboratory Products, a Thermo Fisher company'), '"1"')
  const parent = match('Thermo Fisher', 'Spectrum Laboratory Products, a Thermo Fisher company')
  assert.is(show(parent.confidence!), '"0.92"')
  assert.ok((parent.reasons as string[]).some((r) => /parent or affiliate/.test(r)))
  assert.is(score('Eli Lilly', 'Elanco US Inc., a subsidiary of Eli Lilly and Company'), '"0.92"')
  assert.is(score('Pfizer Labs', 'Pfizer Labs Div Pfizer Inc'), '"1"')
  assert.is(score('Pfizer', 'Pfizer Labs Div Pfizer Inc'), '"0.92"')
})

test('a name made only of legal forms and articles is said so, wherever the forms stand', () => {
  assert.is(match('Inc.', 'Pfizer Inc').only_legal_forms, true)
  assert.is(match('The Company LLC', 'Pfizer Inc').only_legal_forms, true)
  assert.is(match('L.L.C. Inc', 'Pfizer Inc').only_legal_forms, true)
  assert.is(match('NV Nutrition', 'Pfizer Inc').only_legal_forms, false)
  assert.is(match('Pfizer Inc', 'Inc.').only_legal_forms, false)
})

test('legal forms of different kinds are a lead, never a match (issue 32, item 5); Co is of every kind', () => {
  const green = match('Green Pharmaceutical Co. Ltd.', 'Green Pharmaceuticals Inc.')
  assert.is(show(green.confidence!), '"0.97"')
  assert.ok((green.reasons as string[]).some((r) => /legal forms of different kinds \(ltd \/ corp\)/.test(r)), show(green.reasons!))
  assert.is(score('Acme Inc.', 'Acme Corporation'), '"1"')
  assert.is(score('Acme Co.', 'Acme Ltd'), '"1"')
  assert.is(score('Acme GmbH', 'Acme Gesellschaft mit beschränkter Haftung'), '"1"')
  assert.is(score('Acme', 'Acme LLC'), '"1"')
  assert.is(score('Acme LLC', 'Acme AG'), '"0.97"')
})

test.run()
