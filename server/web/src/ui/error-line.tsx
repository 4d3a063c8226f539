/** What went wrong, said to the person (and read out at once); nothing when all is well. */
export function ErrorLine({ message }: { message: string | null | undefined | false }) {
  if (!message) return null
  return (
    <p role="alert" className="error">
      {message}
    </p>
  )
}
