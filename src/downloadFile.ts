/**
 * Offers text or bytes as a file download (the browser's or Electron's save flow), e.g. a CSV or XLSX
 * export; several parts are the file's content one after the other.
 */
export function downloadFile(fileName: string, content: BlobPart | BlobPart[], type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob(Array.isArray(content) ? content : [content], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** A file's bytes as the core sends them across the bridge (base64), ready for `downloadFile`. */
export function bytesOfBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
