/**
 * Resized images kept in memory, least recently used dropped first, within
 * a byte budget. Clients ask for the same few sizes (Alpha: 30, 57, 80 px
 * avatars), so a small cache saves most of the resizing.
 */
export class VariantCache {
  private readonly entries = new Map<string, Buffer>()
  private bytes = 0

  constructor(private readonly budget: number) {}

  get(key: string): Buffer | undefined {
    const hit = this.entries.get(key)
    if (hit) {
      // Re-inserting moves the key to the young end of the Map's order.
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit
  }

  set(key: string, data: Buffer): void {
    if (data.length > this.budget) return
    const old = this.entries.get(key)
    if (old) {
      this.entries.delete(key)
      this.bytes -= old.length
    }
    this.entries.set(key, data)
    this.bytes += data.length
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.budget) break
      this.entries.delete(k)
      this.bytes -= v.length
    }
  }
}
