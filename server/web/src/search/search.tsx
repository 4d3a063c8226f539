/** `/search?q=`: the hashtag the query names, the people and the posts it finds. */
import { Hash } from 'lucide-react'
import { Link, useSearch } from 'wouter'
import { useSession } from '../auth/session'
import { paths } from '../paths'
import { useTitle } from '../notifications/use-title'
import { PeopleResults, PostResults } from './search-results'
import { hashtagOf } from './search-terms'

function HashtagOffer({ tag }: { tag: string }) {
  return (
    <section aria-labelledby="tag-results" className="search-results">
      <h2 id="tag-results">Hashtag</h2>
      <p>
        <Link href={paths.hashtag(tag)} className="hashtag-offer">
          <Hash size={16} aria-hidden="true" />
          {tag}
        </Link>{' '}
        <span className="when">every post tagged #{tag}</span>
      </p>
    </section>
  )
}

export function Search() {
  const { token } = useSession()
  const q = (new URLSearchParams(useSearch()).get('q') ?? '').trim()
  const tag = hashtagOf(q)
  useTitle(q ? `${q} – Search` : 'Search')
  return (
    <section aria-labelledby="search-title" className="search">
      <h1 id="search-title">{q ? `Search: ${q}` : 'Search'}</h1>
      {!q && <p className="empty">Look for people by name or username, posts by their words, or a #hashtag: type in the search box above.</p>}
      {tag && <HashtagOffer tag={tag} />}
      {q && !token && <p className="empty">Sign in to search people and posts.</p>}
      {q && token && (
        <>
          <PeopleResults key={`people-${q}`} q={q} />
          <PostResults key={`posts-${q}`} q={q} />
        </>
      )}
    </section>
  )
}
