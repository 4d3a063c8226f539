/** The owner's control of the account: the password, where it is signed in (read again after a new password signed out the rest), and deleting it. */
import { useState } from 'react'
import { DeleteAccount } from './delete-account'
import { PasswordChange } from './password-change'
import { Sessions } from './sessions'

export function AccountControl({ username }: { username: string }) {
  const [changes, setChanges] = useState(0)
  return (
    <>
      <PasswordChange onChanged={() => setChanges((n) => n + 1)} />
      <Sessions refresh={changes} />
      <DeleteAccount username={username} />
    </>
  )
}
