/// <reference types="vite/client" />
import type { SellerDeskBridge } from '@shared/contract'

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}

declare global {
  interface Window {
    /** Exposed by the Electron preload; absent in the browser preview. */
    sellerDesk?: SellerDeskBridge
  }
}
