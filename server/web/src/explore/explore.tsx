/** The instance's explore streams (curated from the console) and each one's posts. */
import { useEffect, useState } from 'react'
import { Link } from 'wouter'
import type { ExploreStream } from '../../../api'
import { api, ApiError } from '../api/client'
import { paths } from '../paths'
import { Timeline } from '../posts/timeline'
import { ErrorLine } from '../ui/error-line'

export function Explore() {
  const [streams, setStreams] = useState<ExploreStream[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    api
      .get<ExploreStream[]>('/posts/stream/explore')
      .then((a) => setStreams(a.data))
      .catch((err: unknown) => setError(err instanceof ApiError ? err.message : 'The explore streams could not be loaded.'))
  }, [])
  return (
    <section aria-labelledby="explore-title">
      <h1 id="explore-title">Explore</h1>
      <ErrorLine message={error} />
      {!streams && !error && <p className="loading">Loading…</p>}
      <ul className="explore-list">
        {streams?.map((s) => (
          <li key={s.slug}>
            <Link href={paths.exploreStream(s.slug)}>{s.title}</Link>
            <p>{s.description}</p>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ExploreStreamPosts({ slug }: { slug: string }) {
  return <Timeline path={`/posts/stream/explore/${encodeURIComponent(slug)}`} title={`Explore: ${slug}`} live={false} />
}
