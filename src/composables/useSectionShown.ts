/**
 * Whether the workspace section a component belongs to is on screen. The workspace keeps each section
 * it has mounted (opened by the seller, or mounted ahead in idle time) and only hides the others, so a
 * component mounted in a hidden section must not act as if it were seen: shortcuts stay quiet, and work
 * meant for "each time it is shown" waits until it is.
 *
 * Outside a section (sign-in, dialogs at the app root) a component counts as shown while mounted.
 */
import { computed, inject, onBeforeUnmount, onMounted, provide, ref, watch, type InjectionKey, type Ref } from 'vue'

const SECTION_SHOWN: InjectionKey<Readonly<Ref<boolean>>> = Symbol('section shown')

/** For the section's frame: tells everything inside whether the section is on screen. */
export function provideSectionShown(shown: () => boolean): void {
  provide(SECTION_SHOWN, computed(shown))
}

export function useSectionShown(): Readonly<Ref<boolean>> {
  return inject(SECTION_SHOWN, ref(true))
}

/**
 * `shown` each time the component's section comes on screen (at mount too, if it is on screen then);
 * `hidden` each time it leaves the screen, or the component unmounts while shown.
 */
export function onSectionShown(shown: () => void, hidden?: () => void): void {
  const onScreen = useSectionShown()
  let mounted = false
  onMounted(() => {
    mounted = true
    if (onScreen.value) shown()
  })
  watch(onScreen, (now) => {
    if (!mounted) return
    if (now) shown()
    else hidden?.()
  })
  onBeforeUnmount(() => {
    mounted = false
    if (onScreen.value) hidden?.()
  })
}
