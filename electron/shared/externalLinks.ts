/**
 * Which web pages Seller Desk may open in the seller's default browser: https only, and only hosts
 * we expect (carriers' tracking pages). Everything else is refused.
 */
export const EXTERNAL_HOSTS = [
  'ups.com',
  'fedex.com',
  'usps.com',
  'dhl.com',
  'ontrac.com',
  'canadapost-postescanada.ca',
  'royalmail.com',
  'track.aftership.com',
  'track.easypost.com'
] as const

/** Hosts where only the exact name is trusted (their subdomains are given out to third parties). */
const EXACT_ONLY = new Set<string>(['track.aftership.com', 'track.easypost.com'])

export function isAllowedExternalUrl(text: string): boolean {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false
  const host = url.hostname.toLowerCase()
  return EXTERNAL_HOSTS.some((allowed) => host === allowed || (!EXACT_ONLY.has(allowed) && host.endsWith(`.${allowed}`)))
}
