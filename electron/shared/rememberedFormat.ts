/**
 * A number formatter that remembers the texts it made. Intl's format is slow next to a lookup, and a
 * change set's warnings name the same amounts over and over (a paste of thousands of cells with few distinct
 * prices, each warning naming its price, the listing's and the percentage); a formatter's texts never
 * change while Seller Desk runs (its locale is read once). Up to `limit` texts are kept, then they start
 * over. Zero is formatted each time: 0 and -0 read differently ("$0.00", "-$0.00") but are one key of a Map.
 */
export function rememberedFormat(format: (n: number) => string, limit = 20_000): (n: number) => string {
  const texts = new Map<number, string>()
  return (n) => {
    const known = texts.get(n)
    if (known !== undefined) return known
    const text = format(n)
    if (n === 0) return text
    if (texts.size >= limit) texts.clear()
    texts.set(n, text)
    return text
  }
}
