/**
 * The JSON Schemas of the API's objects (server/api/), made from their
 * TypeScript types by ts-json-schema-generator, and kept as a module of
 * the server (server/api-document/api-schemas.ts) that the API document
 * serves. The types are the source; the module is derived, checked in, and
 * a test fails when it no longer matches them. Run after changing a type:
 * `npm run api-schemas`.
 */
import { writeFile } from 'node:fs/promises'
import { createGenerator } from 'ts-json-schema-generator'
import { ROOT } from '../project-root.js'

export const SCHEMAS_MODULE = 'server/api-document/api-schemas.ts'

/** Every exported type of server/api/ as a JSON Schema (draft-07), by name. */
export function apiSchemas(): Record<string, unknown> {
  const generator = createGenerator({
    path: `${ROOT}/server/api/index.ts`,
    tsconfig: `${ROOT}/tsconfig.json`,
    type: '*',
    expose: 'export',
    skipTypeCheck: true,
  })
  const { definitions = {} } = generator.createSchema('*')
  // The generator names an alias of a generic by its instance (`Paginated<Post>`); the document's names are plain (`PaginatedPost`).
  return Object.fromEntries(Object.entries(definitions).map(([name, schema]) => [name.replace(/^Paginated<(\w+)>$/, 'Paginated$1'), schema]))
}

const moduleText = (definitions: Record<string, unknown>): string => `/**
 * Made by \`npm run api-schemas\` from the types of server/api/ (test/tools/api-schemas.ts): do not edit.
 * JSON Schema (draft-07) of each API object, by name; references point into this table as \`#/definitions/NAME\`.
 */
export const API_SCHEMAS: Readonly<Record<string, object>> = ${JSON.stringify(definitions, null, 2)}
`

if (process.argv.includes('--write')) {
  await writeFile(`${ROOT}/${SCHEMAS_MODULE}`, moduleText(apiSchemas()))
  process.stdout.write(`wrote ${SCHEMAS_MODULE}\n`)
}
