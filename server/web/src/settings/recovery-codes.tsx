/** Recovery codes just made: shown this once, with what they are for. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="recovery-codes" role="status">
      <p>
        <strong>Your recovery codes.</strong> Keep them somewhere safe (a password manager, or printed): each signs you in once if you lose your phone. They are
        shown only now.
      </p>
      <ul aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
    </div>
  )
}
