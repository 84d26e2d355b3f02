/**
 * Product properties as one line: the keys the spec names come first, those that tell one model's
 * listings apart most first (grade · storage · color · carrier), so a line cut short in a narrow window
 * still says them; any other key the server sends is kept and shown as "key: value".
 * A bare grade ("A") reads as "Grade A" so it is not mistaken for something else.
 */
import type { Properties } from '@shared/domain'

const KNOWN_ORDER = ['grade', 'storage', 'color', 'carrier'] as const

export function formatProperties(properties: Properties | null | undefined): string {
  if (!properties) return ''
  const known = KNOWN_ORDER.map((key) => {
    const value = properties[key]
    if (typeof value !== 'string' || value.trim() === '') return null
    return key === 'grade' && !/grade/i.test(value) ? `Grade ${value.trim()}` : value.trim()
  }).filter((value): value is string => value !== null)
  const others = Object.entries(properties)
    .filter(([key, value]) => !(KNOWN_ORDER as readonly string[]).includes(key) && String(value).trim() !== '')
    .map(([key, value]) => `${key}: ${String(value)}`)
  return [...known, ...others].join(' · ')
}
