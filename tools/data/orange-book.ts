/**
 * @module The Orange Book importer: FDA's bulk data files (products.txt, patent.txt, exclusivity.txt,
 * '~'-delimited, a header row, dates "Mon D, YYYY"; https://www.fda.gov/drugs/drug-approvals-and-databases/orange-book-data-files)
 * into the data sets tables/pharma/generic_entry.yaml declares (products.csv, patents.csv,
 * exclusivities.csv). Every row is carried over field for field (dates written YYYY-MM-DD), with the
 * address it was retrieved from and the date; a row the format does not allow stops the import with
 * its file and line, so nothing is guessed.
 *
 *     node dist/tools/data/orange-book.js DIR OUT_DIR --source-url URL --retrieved YYYY-MM-DD
 *
 * URL may hold `{file}`, replaced by each file's name (a repository's copy, file by file).
 * DIR holds the files of FDA's zip (EOBZIP_YYYY_MM, https://www.fda.gov/media/76860/download)
 * unpacked; products.txt may be absent (the repository's extract has none), and then products.csv
 * is written with its header only.
 */
import { answerHelp } from '../help.js'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { cell, ImportError, runImporter, type Provenance as BaseProvenance } from './importer.js'

export { ImportError }

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** The header each file must open with (older products files lack RS). */
export const HEADERS = {
  products: [
    'Ingredient~DF;Route~Trade_Name~Applicant~Strength~Appl_Type~Appl_No~Product_No~TE_Code~Approval_Date~RLD~RS~Type~Applicant_Full_Name',
    'Ingredient~DF;Route~Trade_Name~Applicant~Strength~Appl_Type~Appl_No~Product_No~TE_Code~Approval_Date~RLD~Type~Applicant_Full_Name',
  ],
  patent: ['Appl_Type~Appl_No~Product_No~Patent_No~Patent_Expire_Date_Text~Drug_Substance_Flag~Drug_Product_Flag~Patent_Use_Code~Delist_Flag~Submission_Date'],
  exclusivity: ['Appl_Type~Appl_No~Product_No~Exclusivity_Code~Exclusivity_Date'],
} as const

/** The columns of each data set written, in order (tables/pharma/generic_entry.yaml declares the same). */
export const COLUMNS = {
  products: ['application', 'appl_type', 'appl_no', 'product_no', 'ingredient', 'dosage_form_route', 'trade_name', 'applicant', 'strength', 'te_code', 'approval_date', 'approved_before_1982', 'rld', 'rs', 'type', 'applicant_full_name', 'source_url', 'retrieved'],
  patents: ['application', 'appl_type', 'appl_no', 'product_no', 'patent_no', 'patent', 'pediatric', 'expires', 'drug_substance', 'drug_product', 'use_code', 'delisted', 'submitted', 'source_url', 'retrieved'],
  exclusivities: ['application', 'appl_type', 'appl_no', 'product_no', 'code', 'kind', 'expires', 'source_url', 'retrieved'],
} as const


/** "Mar 2, 2027" as 2027-03-02; anything else is an error naming the place. */
export function obDate(text: string, where: string): string {
  const m = /^([A-Z][a-z]{2}) (\d{1,2}), (\d{4})$/.exec(text.trim())
  const month = m ? MONTHS.indexOf(m[1]!) + 1 : 0
  if (!m || month === 0) throw new ImportError(`${where}: "${text}" is not a date of the form "Mon D, YYYY"`)
  const day = Number(m[2])
  const iso = `${m[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
  const check = new Date(`${iso}T00:00:00Z`)
  if (Number.isNaN(check.getTime()) || check.getUTCDate() !== day) throw new ImportError(`${where}: "${text}" is not a day of the calendar`)
  return iso
}

const flag = (text: string, where: string): string => {
  if (text === '') return 'false'
  if (text === 'Y') return 'true'
  throw new ImportError(`${where}: flag "${text}" is neither Y nor empty`)
}

/** The rows of one '~' file after its header, each split in as many fields as the header has. */
function rowsOf(text: string, file: string, headers: readonly string[]): { fields: string[]; line: number; header: string }[] {
  const lines = text.split(/\r?\n/)
  const header = lines[0]?.replace(/^\uFEFF/, '') ?? ''
  if (!headers.includes(header)) throw new ImportError(`${file}:1: the header is not FDA's (${headers[0]})`)
  const width = header.split('~').length
  const out: { fields: string[]; line: number; header: string }[] = []
  lines.slice(1).forEach((raw, i) => {
    if (raw.trim() === '') return
    const fields = raw.split('~')
    if (fields.length !== width) throw new ImportError(`${file}:${i + 2}: ${fields.length} fields, the header has ${width}`)
    out.push({ fields, line: i + 2, header })
  })
  return out
}

const applType = (t: string, where: string) => {
  if (t !== 'N' && t !== 'A') throw new ImportError(`${where}: Appl_Type "${t}" is neither N (NDA) nor A (ANDA)`)
  return t
}
const applNo = (n: string, where: string) => {
  if (!/^\d{6}$/.test(n)) throw new ImportError(`${where}: Appl_No "${n}" is not six digits`)
  return n
}
const productNo = (n: string, where: string) => {
  if (!/^\d{3}$/.test(n)) throw new ImportError(`${where}: Product_No "${n}" is not three digits`)
  return n
}

/** A CSV cell: quoted when it holds a comma, a quote or a line break. */
const csv = (columns: readonly string[], rows: string[][]) => [columns.join(','), ...rows.map((r) => r.map(cell).join(','))].join('\n') + '\n'

/** The address the files were retrieved from (FDA's zip, or a repository's copy of its files): `{file}` in it is replaced by each file's name. */
export type Provenance = BaseProvenance

/** Convert the files of DIR; returns each data set's CSV text and its row count. */
export function importOrangeBook(dir: string, p: Provenance): { products: string; patents: string; exclusivities: string; counts: Record<string, number> } {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(p.retrieved)) throw new ImportError(`--retrieved "${p.retrieved}" is not YYYY-MM-DD`)
  if (!/^https:\/\//.test(p.sourceUrl)) throw new ImportError(`--source-url "${p.sourceUrl}" is not an https address`)
  const read = (name: string) => readFileSync(join(dir, name), 'latin1')
  const tail = (file: string) => [p.sourceUrl.replaceAll('{file}', file), p.retrieved]

  const products: string[][] = []
  if (existsSync(join(dir, 'products.txt'))) {
    for (const { fields, line, header } of rowsOf(read('products.txt'), 'products.txt', HEADERS.products)) {
      const w = `products.txt:${line}`
      const f = header.includes('~RS~') ? fields : [...fields.slice(0, 11), '', ...fields.slice(11)]
      const [ingredient, dfRoute, trade, applicant, strength, type, no, product, te, approval, rld, rs, kind, full] = f as [string, string, string, string, string, string, string, string, string, string, string, string, string, string]
      const before1982 = approval.startsWith('Approved Prior to')
      products.push([`${applType(type, w)}${applNo(no, w)}`, type, no, productNo(product, w), ingredient, dfRoute, trade, applicant, strength, te,
        before1982 ? '' : obDate(approval, w), String(before1982), rld === 'Yes' ? 'true' : 'false', rs === 'Yes' ? 'true' : 'false', kind, full, ...tail('products.txt')])
    }
  }

  const patents: string[][] = []
  for (const { fields, line } of rowsOf(read('patent.txt'), 'patent.txt', HEADERS.patent)) {
    const w = `patent.txt:${line}`
    const [type, no, product, patentNo, expires, substance, drugProduct, use, delist, submitted] = fields as [string, string, string, string, string, string, string, string, string, string]
    const m = /^(\d{7,8}|RE\d{5})(\*PED)?$/.exec(patentNo)
    if (!m) throw new ImportError(`${w}: Patent_No "${patentNo}" is not a patent number (7 or 8 digits, or RE and 5 digits, optionally *PED)`)
    patents.push([`${applType(type, w)}${applNo(no, w)}`, type, no, productNo(product, w), patentNo, m[1]!, String(m[2] !== undefined), obDate(expires, w),
      flag(substance, w), flag(drugProduct, w), use, flag(delist, w), submitted.trim() === '' ? '' : obDate(submitted, w), ...tail('patent.txt')])
  }

  const exclusivities: string[][] = []
  for (const { fields, line } of rowsOf(read('exclusivity.txt'), 'exclusivity.txt', HEADERS.exclusivity)) {
    const w = `exclusivity.txt:${line}`
    const [type, no, product, code, expires] = fields as [string, string, string, string, string]
    const m = /^([A-Z]+\*?)(-\d+)?$/.exec(code)
    if (!m) throw new ImportError(`${w}: Exclusivity_Code "${code}" is not a code of FDA's list (NCE, ODE-nnn, I-nnn, M-nnn, D-nnn, NPP, PED, …)`)
    exclusivities.push([`${applType(type, w)}${applNo(no, w)}`, type, no, productNo(product, w), code, m[1]!, obDate(expires, w), ...tail('exclusivity.txt')])
  }
  return {
    products: csv(COLUMNS.products, products),
    patents: csv(COLUMNS.patents, patents),
    exclusivities: csv(COLUMNS.exclusivities, exclusivities),
    counts: { products: products.length, patents: patents.length, exclusivities: exclusivities.length },
  }
}

function main(argv: string[]): number {
  return runImporter(argv, 'node dist/tools/data/orange-book.js DIR OUT_DIR --source-url URL --retrieved YYYY-MM-DD', (dir, out, p) => {
    const r = importOrangeBook(dir, p)
    writeFileSync(join(out, 'products.csv'), r.products)
    writeFileSync(join(out, 'patents.csv'), r.patents)
    writeFileSync(join(out, 'exclusivities.csv'), r.exclusivities)
    return `${r.counts.products} products, ${r.counts.patents} patents, ${r.counts.exclusivities} exclusivities written to ${out}`
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  answerHelp(import.meta.url)
  process.exitCode = main(process.argv.slice(2))
}
