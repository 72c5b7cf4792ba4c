// Curated terms-of-service analyses added from Open Terms Archive for issue 31, read and curated by hand
// before the clause engine was run on them; each falls in its part by the fixed rule of
// tools/tos-agreement.ts (the first eight in the held-out part, ipinfo and meta_ai in the development
// part). Each passes the checks of curated-checks.ts. docs/decisions/compliance_data.md "Terms of
// service: curated analyses grown for issue 31 (2026.1)".
import { curatedSuite } from './curated-checks.js'

const IDS = ['protonmail', 'qwant', 'webcrawler', 'imdb', 'goodreads', 'streamable', 'chatgpt', 'claude_ai', 'ipinfo', 'meta_ai']
curatedSuite('tos/curated-c: curated analyses grown from Open Terms Archive for issue 31', IDS, IDS.length)
