/** The API document as a page a person reads: every operation with who may call it, its parameters, its body and its answer, then the API's objects. */
import { esc, layout } from '../pages/layout.js'

/** The parts of an OpenAPI schema the page shows. */
interface Schema {
  type?: string
  $ref?: string
  const?: unknown
  description?: string
  anyOf?: Schema[]
  items?: Schema
  pattern?: string
  maxLength?: number
  minimum?: number
  maximum?: number
  enum?: unknown[]
  default?: unknown
  properties?: Record<string, Schema>
  required?: string[]
}

interface Operation {
  security: Record<string, string[]>[]
  'x-svc-answer'?: string | string[]
  parameters: { name: string; in: string; required: boolean; schema?: Schema }[]
  requestBody?: { content?: Record<string, { schema?: Schema }> }
}

/** What the page reads of the OpenAPI document. */
export interface ApiDocument {
  info: { title: string; description: string; version: string }
  paths: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, Schema> }
}

/** An object's name as a link to its section below. */
const objectLink = (name: string): string => `<a href="#object-${esc(name)}">${esc(name)}</a>`

/** `Post[]` as "a list of Post", linked; ids and maps in words; alternatives joined by "or". */
const answerOf = (answer: string | string[]): string => {
  if (Array.isArray(answer)) return answer.map(answerOf).join(' or ')
  if (answer === 'string[]') return 'a list of ids'
  if (answer === 'number') return 'a number'
  if (answer === 'object') return 'a map of ids'
  return answer.endsWith('[]') ? `a list of ${objectLink(answer.slice(0, -2))}` : objectLink(answer)
}

const typeOf = (schema: Schema | undefined): string => {
  if (!schema) return ''
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map(typeOf).join(' or ')
  if (schema.$ref) return schema.$ref.split('/').at(-1) ?? ''
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  const bounds = [
    schema.pattern ? `matching ${schema.pattern}` : '',
    schema.maxLength !== undefined ? `up to ${schema.maxLength} characters` : '',
    schema.minimum !== undefined ? `from ${schema.minimum}` : '',
    schema.maximum !== undefined ? `to ${schema.maximum}` : '',
    Array.isArray(schema.enum) ? `one of ${schema.enum.join(', ')}` : '',
    schema.default !== undefined ? `default ${JSON.stringify(schema.default)}` : '',
  ].filter(Boolean)
  return [schema.type === 'array' ? `array of ${typeOf(schema.items) || 'values'}` : (schema.type ?? 'any'), ...bounds].join(', ')
}

const who = (security: Record<string, string[]>[]): string => {
  if (security.length === 0) return 'anyone'
  const kinds = security.map((r) => {
    const [kind] = Object.keys(r)
    if (kind === undefined) return 'no token'
    return kind === 'appToken' ? 'an app token' : r[kind].length > 0 ? `a user token with ${r[kind].join(' and ')}` : 'a user token'
  })
  return [...new Set(kinds)].join(', or ')
}

const table = (head: string[], rows: string[][]): string =>
  rows.length === 0
    ? ''
    : `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
        .map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`)
        .join('')}</tbody></table>`

/** The page of OpenAPI document `doc`. */
export function openApiPage(doc: ApiDocument): string {
  const operations: string[] = []
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters.map((p) => [`<code>${esc(p.name)}</code>`, esc(p.in), p.required ? 'yes' : '', esc(typeOf(p.schema))])
      const body = op.requestBody?.content?.['application/json']?.schema
      const fields = Object.entries(body?.properties ?? {}).map(([name, schema]) => [
        `<code>${esc(name)}</code>`,
        (body?.required ?? []).includes(name) ? 'yes' : '',
        esc(typeOf(schema)),
      ])
      operations.push(
        `<section id="${esc(`${method}-${path}`)}"><h2><code>${esc(method.toUpperCase())} ${esc(path)}</code></h2>` +
          `<p>Who may call it: ${esc(who(op.security))}.</p>` +
          table(['parameter', 'in', 'required', 'type'], params) +
          (fields.length > 0 ? `<h3>Body (JSON or a form)</h3>${table(['field', 'required', 'type'], fields)}` : '') +
          (op['x-svc-answer'] ? `<p>Answers ${answerOf(op['x-svc-answer'])} in the envelope's <code>data</code>.</p>` : '') +
          `</section>`,
      )
    }
  }
  const objects = Object.entries(doc.components?.schemas ?? {})
    .filter(([, schema]) => schema.properties)
    .map(([name, schema]) => {
      const rows = Object.entries(schema.properties ?? {}).map(([field, type]) => [
        `<code>${esc(field)}</code>`,
        (schema.required ?? []).includes(field) ? 'always' : '',
        esc(typeOf(type)),
        esc(type.description ?? ''),
      ])
      return `<section id="object-${esc(name)}"><h2>${esc(name)}</h2>${schema.description ? `<p>${esc(schema.description)}</p>` : ''}${table(['field', 'present', 'type', 'about'], rows)}</section>`
    })
  const title = `${doc.info.title}: the API`
  return layout(
    title,
    `<h1>${esc(title)}</h1><p>${esc(doc.info.description)} Version ${esc(doc.info.version)}; the same as <a href="/openapi.json">/openapi.json</a>, for OpenAPI tools.</p>${operations.join('')}<h1>Objects</h1>${objects.join('')}`,
  )
}
