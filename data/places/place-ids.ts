/** A place's id: a UUID v5 of its source's own id, so re-imports keep every id and two imports of one object agree. */
import { parse as parseUuid, v5 as uuidv5 } from 'uuid'

export const PLACE_NAMESPACE = '5b0f3a4e-8c1d-5d2e-9f7a-3c6b1e2d4f80'
// Parsed once: uuid would parse the namespace string again for every one of a million ids.
const NAMESPACE_BYTES = parseUuid(PLACE_NAMESPACE)

export const placeIdOf = (sourceRef: string): string => uuidv5(sourceRef, NAMESPACE_BYTES)
