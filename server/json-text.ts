/**
 * JSON text made once and written as is (a post read by many viewers, a
 * user shown in every post of a page), typed by the API object it holds.
 * An object is built from parts, each a few of its fields as text, and
 * closed once; no text already made is ever cut.
 */

/** JSON text of a `T`. */
export class RawJson<T = unknown> {
  /** The text as UTF-8 between `head` and `tail`: the last envelope it was written in, which a kept answer is served in again and again. */
  private framed?: { head: string; tail: string; bytes: Buffer }

  constructor(readonly json: string) {}

  /** The text of `value`, as JSON.stringify writes it. */
  static of<T>(value: T): RawJson<T> {
    return new RawJson(JSON.stringify(value))
  }

  /** `head`, the text and `tail` as UTF-8: the same bytes again while the same envelope is asked for. */
  framedIn(head: string, tail: string): Buffer {
    const framed = this.framed
    if (framed && framed.head === head && framed.tail === tail) return framed.bytes
    this.framed = { head, tail, bytes: Buffer.from(head + this.json + tail) }
    return this.framed.bytes
  }

  /** Anywhere but where the envelope writes the text as is, the value it stands for: it serializes the same either way. */
  toJSON(): T {
    return JSON.parse(this.json) as T
  }
}

/** A field's value as given to `fieldsOf`: the value, or its text already made. */
type Unraw<V> = V extends RawJson<infer U> ? U : V extends readonly RawJson<infer U>[] ? U[] : V

/** Some fields of a `T`, as the JSON text between its braces (empty for none). */
export class JsonFields<T> {
  declare private readonly shape: T

  constructor(readonly text: string) {}

  /** These fields, then those of `more`. */
  and<U>(more: JsonFields<U>): JsonFields<T & U> {
    if (more.text === '') return this as JsonFields<T & U>
    return new JsonFields(this.text === '' ? more.text : `${this.text},${more.text}`)
  }

  /** These fields, then `key` (left out when `value` is undefined): `fieldsOf({[key]: value})` without making that object. */
  with<K extends string, V>(key: K, value: V): JsonFields<T & { [P in K]: Unraw<V> }> {
    const json = value === undefined ? undefined : valueText(value)
    if (json === undefined) return this as JsonFields<T & { [P in K]: Unraw<V> }>
    return new JsonFields(this.text === '' ? keyText(key) + json : `${this.text},${keyText(key)}${json}`)
  }

  /** The object of these fields. */
  object(): RawJson<T> {
    return new RawJson(`{${this.text}}`)
  }
}

// The hot path writes the same few field names again and again: each name's text is made once.
const keyTexts = new Map<string, string>()

const keyText = (key: string): string => {
  let text = keyTexts.get(key)
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`
    if (keyTexts.size < 1_000) keyTexts.set(key, text)
  }
  return text
}

const valueText = (value: unknown): string | undefined => {
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false'
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
    case 'object':
      if (value instanceof RawJson) return value.json
      if (Array.isArray(value) && value.length > 0 && value.every((v) => v instanceof RawJson)) return `[${value.map((v: RawJson) => v.json).join(',')}]`
  }
  return JSON.stringify(value)
}

/**
 * The fields of `o`, in its order, as JSON.stringify writes them (a field
 * whose value is undefined is left out); a value that is a RawJson, or a
 * list of them, is written as its text.
 */
export function fieldsOf<T extends object>(o: T): JsonFields<{ [K in keyof T]: Unraw<T[K]> }> {
  // Joined once, the text is one flat string: kept texts are written again and again, never walked as a chain of pieces.
  const parts: string[] = []
  for (const key of Object.keys(o)) {
    const json = valueText(o[key as keyof T])
    if (json !== undefined) parts.push(keyText(key) + json)
  }
  return new JsonFields(parts.join(','))
}
