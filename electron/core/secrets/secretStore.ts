/**
 * Where the API key is kept. The main side picks one store at start (chooseSecretStore.ts):
 * the OS keychain through keytar, else an encrypted file (Electron safeStorage), else memory for this
 * session only. The key never leaves the main side.
 */
import type { KeyStorage } from '../../shared/contract'

export interface SecretStore {
  readonly kind: KeyStorage
  get(account: string): Promise<string | null>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<void>
}

/** Keeps keys in memory only: gone when the app quits. */
export function createSessionSecretStore(): SecretStore {
  const secrets = new Map<string, string>()
  return {
    kind: 'session-only',
    async get(account) {
      return secrets.get(account) ?? null
    },
    async set(account, secret) {
      secrets.set(account, secret)
    },
    async delete(account) {
      secrets.delete(account)
    }
  }
}
