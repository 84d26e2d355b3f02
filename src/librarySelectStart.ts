/**
 * naive-ui (2.45) cancels the next `selectstart` on the page when a checkbox is pressed, so that a
 * shift-click on it selects no text. A plain click starts no selection, so that one-time cancelling is
 * left waiting and takes the seller's next selection instead: Ctrl+A in a search box right after ticking
 * a row selected nothing. Once such a press is over, a `selectstart` of our own uses it up.
 */
const CHECKBOX = '.n-checkbox'

export function releaseCheckboxSelectStart(): void {
  let pressedCheckbox = false
  window.addEventListener('mousedown', (event) => (pressedCheckbox = event.target instanceof Element && event.target.closest(CHECKBOX) !== null), true)
  window.addEventListener('mouseup', () => {
    if (!pressedCheckbox) return
    pressedCheckbox = false
    window.dispatchEvent(new Event('selectstart', { cancelable: true }))
  })
}
