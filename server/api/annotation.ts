/** An annotation as the API shows it (spec: Annotation): replacement values (`+svc.core.file`, ...) already filled in. */
export interface Annotation {
  type: string
  value: Record<string, unknown>
}
