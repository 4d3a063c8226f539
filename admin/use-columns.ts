/** The terminal's width, drawn again when the terminal is resized (Ink lays out again, but does not render). */
import { useStdout } from 'ink'
import { useEffect, useState } from 'react'

export function useColumns(): number {
  const { stdout } = useStdout()
  const [columns, setColumns] = useState(stdout.columns || 80)
  useEffect(() => {
    const resized = () => setColumns(stdout.columns || 80)
    stdout.on('resize', resized)
    resized()
    return () => {
      stdout.off('resize', resized)
    }
  }, [stdout])
  return columns
}
