/** What the server put in the page about its instance (server/routes/web/web-client.ts). */
export interface Settings {
  name: string
  description: string
  client_id: string
  open_registration: boolean
}

const read = (): Settings => {
  const text = document.getElementById('svc-settings')?.textContent
  const fallback: Settings = { name: 'svc', description: '', client_id: '', open_registration: false }
  if (!text) return fallback
  try {
    return { ...fallback, ...(JSON.parse(text) as Partial<Settings>) }
  } catch {
    return fallback
  }
}

export const settings: Settings = read()
