/**
 * Product images of the demo marketplace: small SVG drawings generated from the image name
 * `<model-slug>--<color-slug>` (e.g. "iphone-15-pro--natural-titanium"), so the app never loads
 * remote content in demo mode. No scripts, no external references.
 */
import { colorHexBySlug, deviceModelBySlug, type DeviceKind } from './catalog'

/** What may follow `/img/` (before `.svg`). */
export const IMAGE_NAME = /^[a-z0-9]+(?:-{1,2}[a-z0-9]+)*$/

const SHAPES: Readonly<Record<DeviceKind | 'unknown', (fill: string) => string>> = {
  phone: (fill) =>
    `<rect x="82" y="28" width="76" height="150" rx="14" fill="${fill}" stroke="#00000033" stroke-width="2"/>` +
    `<rect x="88" y="40" width="64" height="126" rx="6" fill="#0b1220" opacity="0.88"/>` +
    `<rect x="108" y="33" width="24" height="4" rx="2" fill="#00000055"/>`,
  tablet: (fill) =>
    `<rect x="56" y="30" width="128" height="150" rx="12" fill="${fill}" stroke="#00000033" stroke-width="2"/>` +
    `<rect x="64" y="38" width="112" height="134" rx="4" fill="#0b1220" opacity="0.88"/>`,
  laptop: (fill) =>
    `<rect x="50" y="48" width="140" height="94" rx="6" fill="${fill}" stroke="#00000033" stroke-width="2"/>` +
    `<rect x="57" y="55" width="126" height="80" rx="2" fill="#0b1220" opacity="0.88"/>` +
    `<path d="M36 146 H204 L196 158 H44 Z" fill="${fill}" stroke="#00000033" stroke-width="2"/>`,
  watch: (fill) =>
    `<rect x="102" y="30" width="36" height="150" rx="10" fill="${fill}" opacity="0.75"/>` +
    `<rect x="86" y="66" width="68" height="78" rx="18" fill="${fill}" stroke="#00000033" stroke-width="2"/>` +
    `<rect x="93" y="73" width="54" height="64" rx="12" fill="#0b1220" opacity="0.9"/>`,
  unknown: (fill) => `<rect x="70" y="40" width="100" height="130" rx="12" fill="${fill}" stroke="#00000033" stroke-width="2"/>`
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The SVG for an image name (see IMAGE_NAME); unknown models or colours get a plain device. */
export function productImageSvg(name: string): string {
  const [modelSlug = '', colorSlug = ''] = name.split('--')
  const model = deviceModelBySlug(modelSlug)
  const fill = colorHexBySlug(colorSlug) ?? '#9aa0a6'
  const label = escapeXml(model?.name ?? 'Device')
  const shape = SHAPES[model?.kind ?? 'unknown'](fill)
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240" role="img" aria-label="${label}">` +
    `<rect width="240" height="240" rx="16" fill="#f3f4f6"/>` +
    shape +
    `<text x="120" y="218" text-anchor="middle" font-family="system-ui, sans-serif" font-size="13" fill="#374151">${label}</text>` +
    `</svg>`
  )
}
