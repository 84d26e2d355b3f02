/**
 * Ctrl/Cmd+F puts the cursor in the search box of the section on screen. The workspace owns the shortcut
 * (provideFindShortcut); a search box offers itself while its section is on screen (offerFindTarget).
 *
 * A Ctrl+F pressed while the section's view is still loading (its first opening, before its code has
 * arrived) is kept, and answered when the view's search box comes on screen: the seller's keypress is not
 * lost. Switching to another section drops it.
 */
import { inject, provide, watch, type InjectionKey } from 'vue'
import { onSectionShown } from './useSectionShown'
import { useShortcut } from './useShortcut'

interface FindTargets {
  offer(focus: () => void): void
  withdraw(focus: () => void): void
}

const FIND_TARGETS: InjectionKey<FindTargets> = Symbol('find targets')

/**
 * For the workspace: `sectionOnScreen` changes whenever another section is shown; `searchable` tells
 * whether the section on screen has a search box (elsewhere Ctrl/Cmd+F is left to the browser).
 */
export function provideFindShortcut(sectionOnScreen: () => unknown, searchable: () => boolean): void {
  const targets = new Set<() => void>()
  let waiting = false
  useShortcut({ key: 'f', mod: true, when: searchable }, () => {
    const target = [...targets].at(-1)
    if (target) target()
    else waiting = true
  })
  watch(sectionOnScreen, () => (waiting = false))
  provide(FIND_TARGETS, {
    offer(focus) {
      targets.add(focus)
      if (!waiting) return
      waiting = false
      focus()
    },
    withdraw: (focus) => targets.delete(focus)
  })
}

/** For a search box: `focus` is called on Ctrl/Cmd+F while its section is on screen. */
export function offerFindTarget(focus: () => void): void {
  const targets = inject(FIND_TARGETS, null)
  if (!targets) throw new Error('A search box must be inside the workspace (provideFindShortcut)')
  onSectionShown(
    () => targets.offer(focus),
    () => targets.withdraw(focus)
  )
}
