/**
 * A part of the window loaded on first use (or in idle time ahead of it), so the app starts with a small
 * bundle. Where its file cannot be loaded, the seller sees why and a Retry, never a blank view.
 */
import { defineAsyncComponent, type Component } from 'vue'
import ViewLoadFailed from './components/ViewLoadFailed.vue'

export const lazyView = (loader: () => Promise<Component | { default: Component }>) => defineAsyncComponent({ loader, errorComponent: ViewLoadFailed })
