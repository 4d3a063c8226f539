/** How a search's `q` meets a place's name: case- and accent-insensitive, partial. */

/** `name` lower case, without accents (NFD, combining marks dropped), spaces collapsed. */
export const normaliseName = (name: string): string => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim()

/**
 * How well normalised `name` matches normalised `q`: 4 the same name, 3 a
 * prefix, 2 the prefix of a later word, 1 anywhere inside, 0 not at all.
 */
export function nameScore(name: string, q: string): number {
  if (name === q) return 4
  const at = name.indexOf(q)
  if (at === 0) return 3
  if (at < 0) return 0
  // The first occurrence may sit inside a word and a later one start a word ("cabaret bar" for "ba").
  for (let i = at; i >= 0; i = name.indexOf(q, i + 1)) if (!/[\p{L}\p{N}]/u.test(name[i - 1])) return 2
  return 1
}
