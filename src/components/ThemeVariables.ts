/**
 * The theme's colours as CSS custom properties on the page root (`--sd-primary-color`, …), kept in step
 * with light / dark. Components style themselves with `var(--sd-…)` in plain CSS: one set of
 * properties for the whole page instead of a style effect per component instance (a table renders
 * dozens of cells), and it reaches teleported drawers and dialogs too. Renders nothing; placed inside
 * naive-ui's config provider, whose theme it reads. Also `--sd-tint`: how strongly a tone tints a background, and `--sd-muted-text-color` for secondary text.
 */
import { useThemeVars } from 'naive-ui'
import { defineComponent, watchEffect } from 'vue'

/** naive-ui theme variables offered as `--sd-<kebab-name>`, e.g. textColor2 → --sd-text-color-2. */
const OFFERED = [
  'primaryColor',
  'primaryColorHover',
  'baseColor',
  'infoColor',
  'successColor',
  'warningColor',
  'errorColor',
  'textColor2',
  'tagColor',
  'hoverColor',
  'borderColor',
  'dividerColor',
  'actionColor',
  'buttonColor2',
  'buttonColor2Hover',
  'buttonColor2Pressed',
  'opacityDisabled',
  'borderRadiusSmall'
] as const

const kebab = (name: string) => name.replace(/[A-Z0-9]/g, (c) => `-${c.toLowerCase()}`)

export default defineComponent({
  name: 'ThemeVariables',
  props: {
    /** The dark theme is in force: tinted backgrounds (tags) are a little stronger there, as naive-ui's are. */
    dark: { type: Boolean, required: true }
  },
  setup(props) {
    const themeVars = useThemeVars()
    watchEffect(() => {
      const root = document.documentElement.style
      for (const name of OFFERED) root.setProperty(`--sd-${kebab(name)}`, themeVars.value[name])
      root.setProperty('--sd-tint', props.dark ? '16%' : '12%')
      // Secondary text (hints, SKUs, labels beside values): quieter than the body text, yet 4.5:1 or more
      // on the page, on dialogs and on tags (naive-ui's textColor3 is below that on white).
      root.setProperty('--sd-muted-text-color', props.dark ? 'rgba(255, 255, 255, 0.62)' : '#5c6066')
    })
    return () => null
  }
})
