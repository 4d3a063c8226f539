/** Name, description (counted against its 256 characters), language and time zone: replaced together with PUT /users/me. */
import { useId, useMemo, useState } from 'react'
import { api, ApiError } from '../api/client'
import type { User } from '../../../api'

export const NAME_MAX_LENGTH = 50
export const DESCRIPTION_MAX_LENGTH = 256

const length = (text: string): number => Array.from(text).length

export function ProfileForm({ user, onSaved }: { user: User; onSaved(user: User): void }) {
  const id = useId()
  const [name, setName] = useState(user.name)
  const [description, setDescription] = useState(user.description?.text ?? '')
  const [locale, setLocale] = useState(user.locale ?? '')
  const [timezone, setTimezone] = useState(user.timezone ?? '')
  const [status, setStatus] = useState<{ error: boolean; text: string } | null>(null)
  const [saving, setSaving] = useState(false)
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), [])
  const left = DESCRIPTION_MAX_LENGTH - length(description)

  const save = async () => {
    setSaving(true)
    setStatus(null)
    try {
      const { data } = await api.put<User>('/users/me', { name, locale, timezone, description: { text: description } })
      onSaved(data)
      setStatus({ error: false, text: 'Your profile is saved.' })
    } catch (err) {
      setStatus({ error: true, text: err instanceof ApiError ? err.message : 'Your profile was not saved.' })
    } finally {
      setSaving(false)
    }
  }

  return (
    <form
      className="profile-form"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <label htmlFor={`${id}-name`}>Name</label>
      <input id={`${id}-name`} value={name} maxLength={NAME_MAX_LENGTH} onChange={(e) => setName(e.target.value)} autoComplete="name" />
      <label htmlFor={`${id}-description`}>Description</label>
      <textarea id={`${id}-description`} value={description} rows={4} aria-describedby={`${id}-left`} onChange={(e) => setDescription(e.target.value)} />
      <p id={`${id}-left`} className={left < 0 ? 'counter over' : 'counter'} aria-live="polite">
        {left < 0 ? `${-left} characters too many` : `${left} characters left`}
      </p>
      <details>
        <summary>Language and time zone</summary>
        <label htmlFor={`${id}-locale`}>Language (a locale such as en_US)</label>
        <input id={`${id}-locale`} value={locale} required onChange={(e) => setLocale(e.target.value)} />
        <label htmlFor={`${id}-timezone`}>Time zone</label>
        <input id={`${id}-timezone`} value={timezone} required list={`${id}-zones`} onChange={(e) => setTimezone(e.target.value)} />
        <datalist id={`${id}-zones`}>
          {zones.map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </details>
      <div className="form-bar">
        <p aria-live="polite" className={status?.error ? 'error' : 'status'}>
          {status?.text}
        </p>
        <button type="submit" className="primary" disabled={saving || left < 0}>
          {saving ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  )
}
