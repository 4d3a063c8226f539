/** ISO 8601 UTC without fractional seconds, as the API writes timestamps. */
export const isoNow = (date: Date = new Date()): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z')
