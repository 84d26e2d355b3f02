import { describe, expect, it } from 'vitest'
import type { VNode } from 'vue'
import { SKU_CLASS, skusWhole } from './skuText'

/** The words and the SKUs as skusWhole lays them out: a SKU as `[SKU]`. */
function parts(node: VNode): string[] {
  const children = (node.children ?? []) as (string | VNode)[]
  if (typeof children === 'string') return [children]
  return children.map((child) => (typeof child === 'string' ? child : child.props?.class === SKU_CLASS ? `[${String(child.children)}]` : '?'))
}

describe('skusWhole', () => {
  it('puts each SKU named in the words in a span of its own, the words around it as they are', () => {
    const node = skusWhole('Saved the price of “Phone” (APL-IP15-128-BLK-A).', ['APL-IP15-128-BLK-A'])
    expect(parts(node)).toEqual(['Saved the price of “Phone” (', '[APL-IP15-128-BLK-A]', ').'])
  })

  it('keeps a longer SKU whole where a shorter one begins it, and every occurrence', () => {
    const node = skusWhole('AB-1 and AB-1-X, then AB-1', ['AB-1', 'AB-1-X'])
    expect(parts(node)).toEqual(['', '[AB-1]', ' and ', '[AB-1-X]', ', then ', '[AB-1]', ''])
  })

  it('takes a SKU’s characters as they are, those a pattern would read otherwise included', () => {
    expect(parts(skusWhole('On A.B+(1) now', ['A.B+(1)']))).toEqual(['On ', '[A.B+(1)]', ' now'])
    expect(parts(skusWhole('On AxB now', ['A.B']))).toEqual(['On AxB now'])
  })

  it('leaves words that name no SKU (none given, or none in them) as they are', () => {
    expect(parts(skusWhole('Deleted “Phone”.', [null, undefined, '']))).toEqual(['Deleted “Phone”.'])
    expect(parts(skusWhole('Deleted “Phone”.', ['XY-1']))).toEqual(['Deleted “Phone”.'])
  })
})
