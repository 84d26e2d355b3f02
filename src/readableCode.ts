/**
 * A code the marketplace sends that Seller Desk has no name for ("closed", "on-hold-by-buyer",
 * "PLATFORM_SHIPPING") as words a seller reads: separators become spaces and the first letter is a
 * capital ("Closed", "On hold by buyer", "Platform shipping"). Text that already reads as words (has a
 * space, or mixed case) is left as sent. Callers keep the code itself at hand (a tooltip) for support.
 */
export function readableCode(code: string): string {
  const text = code.trim()
  if (text === '' || /\s/.test(text) || (/[a-z]/.test(text) && /[A-Z]/.test(text))) return text
  const words = text.replace(/[-_.]+/g, ' ').trim().toLowerCase()
  return words ? words[0]!.toUpperCase() + words.slice(1) : text
}
