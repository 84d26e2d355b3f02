/**
 * The floor a sync is measured against: every page of both lists fetched with the global fetch, at the
 * sync's page size and concurrency, newest first as the sync reads them.
 */

export interface PlainFetchOptions {
  take: number
  concurrency: number
  /** JSON.parse each page (else the body is read and dropped). */
  parse: boolean
}

export async function plainFetchAll(
  market: { baseUrl: string; apiKey: string },
  lists: { orders: number; sellRequests: number },
  { take, concurrency, parse }: PlainFetchOptions
): Promise<void> {
  for (const [path, total] of [
    ['/v1/orders/seller', lists.orders],
    ['/v1/sell-requests', lists.sellRequests]
  ] as const) {
    const pages = Math.ceil(total / take)
    let next = 1
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next <= pages) {
          const response = await fetch(`${market.baseUrl}${path}?page=${next++}&take=${take}&sortDir=DESC`, { headers: { 'x-api-key': market.apiKey } })
          if (!response.ok) throw new Error(`${path} answered ${response.status}`)
          if (parse) JSON.parse(await response.text())
          else await response.arrayBuffer()
        }
      })
    )
  }
}
