import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { useLocation } from 'wouter'
import { App } from './app'
import { SessionProvider } from './auth/session'
import { UnreadProvider } from './messages/unread'
import { NotificationsProvider } from './notifications/notifications-context'
import { StreamProvider } from './stream/stream-context'
import './ui/styles.css'

function Root() {
  const [, navigate] = useLocation()
  return (
    <SessionProvider onReturn={(path) => navigate(path, { replace: true })}>
      <StreamProvider>
        <UnreadProvider>
          <NotificationsProvider>
            <App />
          </NotificationsProvider>
        </UnreadProvider>
      </StreamProvider>
    </SessionProvider>
  )
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Root />
  </StrictMode>,
)
