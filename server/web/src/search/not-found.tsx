/** Any address the client does not know (the server answers those with this page and a 404): says so and offers a way on. */
import { Link } from 'wouter'
import { useSession } from '../auth/session'
import { paths } from '../paths'
import { useTitle } from '../notifications/use-title'

export function NotFound() {
  const { token } = useSession()
  useTitle('Not found')
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">Not found</h1>
      <p>There is nothing at this address. It may have been mistyped, or what was here has gone.</p>
      <p>
        Try the search box above, or go to <Link href={token ? paths.home : paths.landing}>{token ? 'your home timeline' : 'the front page'}</Link>.
      </p>
    </section>
  )
}
