/**
 * What our UI libraries' markup leaves out for assistive technology, filled in on the page as their parts
 * appear. Neither offers a prop for any of these. naive-ui (2.45):
 * - a card's header is `role="heading"` twice over (the header and its title) and has no level: the header,
 *   which also holds the card's buttons, becomes a plain container; its title a level-2 heading;
 * - a table's selection checkbox points `aria-labelledby` at a label it never renders: it gets a name;
 * - a number field's step buttons are icons without a name: they get one;
 * - a modal (a card or a dialog) is `role="dialog"` without a name: it is named by its title, so the name
 *   follows the title as it changes, and no dialog repeats its title as a label of its own;
 * - a select takes the keyboard on a plain div (a filterable multiple one's tags, a single one's label), which
 *   says nothing of what the select is for, and its arrow holds an icon named "loading" even while nothing
 *   loads: the div becomes a combobox named by what our code names the select (its `input-props`
 *   aria-label, or, a select without an input, its title) whose value is what is chosen (its own text),
 *   expanded while its menu is open; the arrow is hidden from assistive technology.
 * RevoGrid (4.x): the bulk-edit grid's filter panel shows "Filter by" beside its condition list without
 * tying the two together: the list gets that name.
 * Each element is touched once (Vue does not write an attribute back while its own value is unchanged).
 */

const CARD_HEADER = '.n-card-header[role="heading"]'
const CARD_TITLE = '.n-card-header__main[role="heading"]:not([aria-level])'
const ROW_CHECKBOX = '.n-data-table-td--selection .n-checkbox:not([aria-label])'
const PAGE_CHECKBOX = '.n-data-table-th--selection .n-checkbox:not([aria-label])'
const NUMBER_FIELD = '.n-input-number'
const GRID_FILTER_CONDITION = '.filter-panel-dialog select:not([aria-label])'
const UNNAMED_MODAL = '.n-modal[role="dialog"]:not([aria-label]):not([aria-labelledby]), .n-dialog[role="dialog"]:not([aria-label]):not([aria-labelledby])'
/** A select's keyboard stop: a filterable multiple select's tags, a single select's label. */
const SELECT_STOP = '.n-base-selection-tags[tabindex]:not([role]), .n-base-selection-label[tabindex]:not([role])'
const SELECT_ARROW = '.n-base-selection .n-base-suffix:not([aria-hidden])'
/** A modal's own title (a card's within it are not). */
const MODAL_TITLE = ':scope > .n-card-header > .n-card-header__main, :scope > .n-dialog__title'

let titlesNamed = 0
let menusNamed = 0

function fillIn(root: ParentNode) {
  root.querySelectorAll(CARD_HEADER).forEach((header) => header.setAttribute('role', 'none'))
  root.querySelectorAll(CARD_TITLE).forEach((title) => title.setAttribute('aria-level', '2'))
  root.querySelectorAll(ROW_CHECKBOX).forEach((box) => box.setAttribute('aria-label', 'Select this row'))
  root.querySelectorAll(PAGE_CHECKBOX).forEach((box) => box.setAttribute('aria-label', 'Select every row on this page'))
  root.querySelectorAll(GRID_FILTER_CONDITION).forEach((list) => list.setAttribute('aria-label', 'Filter by'))
  root.querySelectorAll(UNNAMED_MODAL).forEach((modal) => {
    const title = modal.querySelector(MODAL_TITLE)
    if (!title) return
    title.id ||= `modal-title-${++titlesNamed}`
    modal.setAttribute('aria-labelledby', title.id)
  })
  root.querySelectorAll(SELECT_ARROW).forEach((arrow) => arrow.setAttribute('aria-hidden', 'true'))
  root.querySelectorAll<HTMLElement>(SELECT_STOP).forEach(nameSelect)
  root.querySelectorAll(NUMBER_FIELD).forEach((field) => {
    // The step buttons come minus first, then plus, whichever side they are placed on.
    const [minus, plus] = field.querySelectorAll<HTMLElement>('.n-input__prefix .n-button, .n-input__suffix .n-button')
    if (minus && !minus.hasAttribute('aria-label')) minus.setAttribute('aria-label', 'Decrease')
    if (plus && !plus.hasAttribute('aria-label')) plus.setAttribute('aria-label', 'Increase')
  })
}

/**
 * A select's keyboard stop as a combobox (see above); left as it is when our code gave the select no name.
 * naive-ui marks the select active while its menu is open (and a filterable one while its search field has the
 * keyboard, which is then not on this stop): the stop is expanded then, controlling the open menu.
 */
function nameSelect(stop: HTMLElement) {
  const select = stop.closest('.n-select')
  const selection = stop.closest('.n-base-selection')
  const name = stop.querySelector('input[aria-label]')?.getAttribute('aria-label') ?? select?.getAttribute('title')
  if (!name || !selection) return
  stop.setAttribute('role', 'combobox')
  stop.setAttribute('aria-label', name)
  stop.setAttribute('aria-haspopup', 'listbox')
  const showExpanded = () => {
    const menu = selection.classList.contains('n-base-selection--active') ? openSelectMenu() : null
    stop.setAttribute('aria-expanded', String(menu !== null))
    if (menu) stop.setAttribute('aria-controls', (menu.id ||= `select-menu-${++menusNamed}`))
    else stop.removeAttribute('aria-controls')
  }
  showExpanded()
  new MutationObserver(showExpanded).observe(selection, { attributes: true, attributeFilter: ['class'] })
}

/** The select menu on screen: one at most, as opening one closes any other. */
const openSelectMenu = () => [...document.querySelectorAll<HTMLElement>('.n-base-select-menu')].find((menu) => menu.getClientRects().length > 0) ?? null

/** Fills in the names and roles under `root` now and whenever elements are added; returns the stop. */
export function fillInLibraryAria(root: HTMLElement = document.body): () => void {
  fillIn(root)
  let pending = false
  const observer = new MutationObserver((mutations) => {
    // Once per frame at most: a list re-rendering its rows adds many nodes at once.
    if (pending || !mutations.some((mutation) => mutation.addedNodes.length > 0)) return
    pending = true
    requestAnimationFrame(() => {
      pending = false
      fillIn(root)
    })
  })
  observer.observe(root, { childList: true, subtree: true })
  return () => observer.disconnect()
}
