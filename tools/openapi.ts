/**
 * @module `npm run openapi`: print the OpenAPI 3.1 document the service serves at /openapi.json, for
 * client generators and reviews, without starting the service.
 */
import { answerHelp } from './help.js'
import { loadCatalog } from '../service/index.js'
import { openApiDocument } from '../service/openapi.js'
import { RULES_DIR, TABLES_DIR } from '../service/project/paths.js'

answerHelp(import.meta.url)

console.log(JSON.stringify(openApiDocument(loadCatalog({ rulesDir: RULES_DIR, tablesDir: TABLES_DIR })), null, 2))
