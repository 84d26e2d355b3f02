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
  'aftership.com',
  'easypost.com',
  'track.easypost.com'
] as const

export function isAllowedExternalUrl(text: string): boolean {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return false
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false
  const host = url.hostname.toLowerCase()
  return EXTERNAL_HOSTS.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))
}
