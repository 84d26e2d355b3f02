/** The staging steps of stagedUnderKill.test.ts: step n sets the price of 40 of the listings (which ones moves with n). */
export function stepChanges(ids: readonly string[], step: number): { sellRequestId: string; priceCents: number }[] {
  return Array.from({ length: 40 }, (_, k) => ({ sellRequestId: ids[(step * 7 + k) % ids.length]!, priceCents: 100_000 + step * 100 + k }))
}

/** Each listing's staged price after steps 0…`last` (none staged before step 0). */
export function stateAfter(ids: readonly string[], last: number): Map<string, number> {
  const state = new Map<string, number>()
  for (let step = 0; step <= last; step++) for (const change of stepChanges(ids, step)) state.set(change.sellRequestId, change.priceCents)
  return state
}
