/**
 * A code the marketplace sends that Seller Desk has no name for ("closed", "on-hold-by-buyer",
 * "PLATFORM_SHIPPING") as words a seller reads: separators become spaces and the first letter is a
 * capital ("Closed", "On hold by buyer", "Platform shipping"). Text that already reads as words (has a
 * space, or mixed case) is left as sent, and short all-capital words stay acronyms ("UPS_GROUND" → "UPS ground"). Callers keep the code itself at hand (a tooltip) for support.
 */
export function readableCode(code: string): string {
  const text = code.trim()
  if (text === '' || /\s/.test(text) || (/[a-z]/.test(text) && /[A-Z]/.test(text))) return text
  // Short all-capital words are acronyms (UPS, DHL, USPS): kept as they are.
  const words = text
    .split(/[-_.]+/)
    .filter(Boolean)
    .map((word) => (/^[A-Z]{2,4}$/.test(word) ? word : word.toLowerCase()))
    .join(' ')
  return words ? words[0]!.toUpperCase() + words.slice(1) : text
}
