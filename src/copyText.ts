/**
 * Puts text on the clipboard: the Clipboard API where the page may use it, otherwise the classic copy
 * command on a hidden field (Electron's locked-down session refuses clipboard permissions).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    const field = document.createElement('textarea')
    field.value = text
    field.setAttribute('readonly', '')
    field.style.position = 'fixed'
    field.style.opacity = '0'
    document.body.appendChild(field)
    field.select()
    try {
      return document.execCommand('copy')
    } finally {
      field.remove()
    }
  }
}
