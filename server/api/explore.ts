/** An Explore stream (spec: Explore stream): a curated subset of public posts. */
export interface ExploreStream {
  slug: string
  title: string
  description: string
  /** Where its posts are read. */
  url: string
}
