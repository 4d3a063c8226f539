/** The header's search box: what is typed opens `/search?q=`, and the box shows the query of the results on screen. */
import { Search as SearchIcon } from 'lucide-react'
import { useEffect, useState, type FormEvent, type MouseEvent } from 'react'
import { useLocation, useSearch } from 'wouter'
import { paths } from '../paths'
import './search.css'

export function SearchBox() {
  const [location, navigate] = useLocation()
  const search = useSearch()
  const current = location === '/search' ? (new URLSearchParams(search).get('q') ?? '') : ''
  const [text, setText] = useState(current)
  useEffect(() => setText(current), [current])

  const submit = (e: FormEvent | MouseEvent) => {
    e.preventDefault()
    const q = text.trim()
    if (q) navigate(paths.search(q))
  }
  return (
    <form role="search" className="search-box" onSubmit={submit}>
      <label htmlFor="search-q" className="visually-hidden">
        Search people, posts and hashtags
      </label>
      <input id="search-q" type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Search" autoComplete="off" />
      {/* Not a submit button: the page's own forms are the ones a "submit" means; Enter in the box still sends it. */}
      <button type="button" aria-label="Search" onClick={submit}>
        <SearchIcon size={16} aria-hidden="true" />
      </button>
    </form>
  )
}
