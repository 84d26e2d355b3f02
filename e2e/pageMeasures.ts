import type { Locator, Page } from '@playwright/test'

/**
 * Measures of how text lies on the page, for specs' `evaluate` callbacks (which run in the page and can
 * import nothing): installed on every page the `app` fixture opens, as `window.sdMeasure`.
 */

export interface PageMeasures {
  /** Lines `el`'s text takes: the tops of its line boxes (a line's pieces differ by a few pixels at most). */
  textLines(el: Element): number
  /** The element in `el` (or `el`) whose content is wider than its box and clipped or ellipsized; null when none. */
  cutBy(el: Element): HTMLElement | null
}

declare global {
  interface Window {
    sdMeasure: PageMeasures
  }
}

/** The init script: self-contained, as Playwright sends its source to the page. */
export function installPageMeasures(): void {
  window.sdMeasure = {
    textLines(el) {
      const tops: number[] = []
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim()) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const r of range.getClientRects()) if (r.width > 0 && !tops.some((top) => Math.abs(top - r.top) < r.height / 2)) tops.push(r.top)
      }
      return tops.length
    },
    cutBy(el) {
      const all = [el, ...el.querySelectorAll('*')] as HTMLElement[]
      return all.find((e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible') ?? null
    }
  }
}

const STILL_FRAMES = 5
const STILL_MS = 150

/**
 * Waits until the layout in `box` holds still after a resize: the boxes and scroll sizes of it and of
 * everything in it unchanged for at least STILL_FRAMES animation frames and STILL_MS running. What a
 * resize sets off (resize observers, the re-render they cause, the bulk grid's throttled re-measure)
 * runs within frames and timers, so a slow machine waits longer rather than measuring a layout midway.
 * What a running animation moves (a spinner, a fading toast) is left out: it never holds still.
 */
export async function layoutSettled(box: Locator): Promise<void> {
  const settled = await box.evaluate(
    (el, { frames, ms, limitMs }) =>
      new Promise<boolean>((resolve) => {
        const shape = () => {
          const moving = document.getAnimations().flatMap((a) => (a.effect instanceof KeyframeEffect && a.effect.target ? [a.effect.target] : []))
          return [el, ...el.querySelectorAll('*')]
            .filter((e) => !moving.some((m) => m.contains(e)))
            .map((e) => {
              const r = e.getBoundingClientRect()
              return `${r.left},${r.top},${r.width},${r.height},${e.scrollWidth},${e.scrollHeight}`
            })
            .join(';')
        }
        const start = performance.now()
        let last = shape()
        let stillFrames = 0
        let stillSince = start
        const tick = (now: number) => {
          const current = shape()
          if (current === last) stillFrames++
          else [last, stillFrames, stillSince] = [current, 0, now]
          if (stillFrames >= frames && now - stillSince >= ms) resolve(true)
          else if (now - start > limitMs) resolve(false)
          else requestAnimationFrame(tick)
        }
        requestAnimationFrame(tick)
      }),
    { frames: STILL_FRAMES, ms: STILL_MS, limitMs: 15_000 }
  )
  if (!settled) throw new Error('layoutSettled: the layout kept moving for 15 s')
}

/** A Vue transition's class on an element: set while its entrance or exit runs, from before its CSS transition starts until it ends. */
const TRANSITION_CLASS = /-(enter|leave)-(from|active|to)$/

/**
 * Waits until nothing on the page is moving: no element in a Vue transition (a dialog, drawer or toast
 * opening or closing) and no CSS transition or animation running (a theme's colours fading), for
 * STILL_FRAMES animation frames in a row. Endless animations (a spinner) never end and are left out. What
 * a page reads of its colours and boxes is then what a seller sees at rest, however long a busy machine
 * draws an animation out.
 */
export async function animationsEnded(page: Page): Promise<void> {
  const ended = await page.evaluate(
    ({ frames, limitMs, transitionClass }) =>
      new Promise<string | null>((resolve) => {
        const pattern = new RegExp(transitionClass)
        const moving = () => {
          const animation = document
            .getAnimations()
            .find((a) => a.playState !== 'finished' && a.playState !== 'idle' && a.effect?.getComputedTiming().iterations !== Infinity)
          if (animation)
            return `an animation (${animation.constructor.name}) of ${(animation.effect as KeyframeEffect | null)?.target?.className ?? 'the page'}`
          const inTransition = [...document.querySelectorAll('[class*="-enter-"], [class*="-leave-"]')].find((e) =>
            [...e.classList].some((c) => pattern.test(c))
          )
          return inTransition ? `a transition of ${inTransition.className}` : null
        }
        const start = performance.now()
        let stillFrames = 0
        const tick = (now: number) => {
          const what = moving()
          stillFrames = what ? 0 : stillFrames + 1
          if (stillFrames >= frames) resolve(null)
          else if (now - start > limitMs) resolve(what)
          else requestAnimationFrame(tick)
        }
        requestAnimationFrame(tick)
      }),
    { frames: STILL_FRAMES, limitMs: 15_000, transitionClass: TRANSITION_CLASS.source }
  )
  if (ended !== null) throw new Error(`animationsEnded: still moving after 15 s: ${ended}`)
}

/** Runs the page's CPU `rate` times slower (1: as it is), as on a loaded machine. */
export async function throttleCpu(page: Page, rate: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate })
}
