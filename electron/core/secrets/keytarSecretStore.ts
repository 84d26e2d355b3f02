/**
 * The OS keychain (macOS Keychain, Windows Credential Manager, Secret Service on Linux) via keytar.
 * keytar is a Node-API module: it loads in Electron and in Node without a rebuild.
 */
import { SellerDeskError } from '../../shared/errors'
import type { SecretStore } from './secretStore'

type Keytar = typeof import('keytar')

const KEYCHAIN_TIMEOUT_MS = 15_000

const KEYCHAIN_MESSAGE = 'The system keychain did not answer. Unlock it (or install a Secret Service such as GNOME Keyring on Linux) and try again.'

/**
 * Opens the keychain and checks it answers. Returns null (with the reason) when keytar cannot load or
 * no keychain service is running, so the caller can fall back.
 */
export async function openKeytarSecretStore(service: string): Promise<{ store: SecretStore } | { store: null; reason: string }> {
  let keytar: Keytar
  try {
    const loaded = (await import('keytar')) as Keytar & { default?: Keytar }
    keytar = loaded.default ?? loaded
  } catch {
    return { store: null, reason: 'the keychain module could not be loaded' }
  }
  try {
    await keytar.findCredentials(service)
  } catch {
    return { store: null, reason: 'no system keychain is available' }
  }
  // A locked keychain may wait for a password prompt forever: give up after a while.
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      return await Promise.race([
        work(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('keychain timeout')), KEYCHAIN_TIMEOUT_MS)
        })
      ])
    } catch {
      throw new SellerDeskError('keychain', KEYCHAIN_MESSAGE)
    } finally {
      clearTimeout(timer)
    }
  }
  return {
    store: {
      kind: 'keychain',
      get: (account) => guard(() => keytar.getPassword(service, account)),
      set: (account, secret) => guard(() => keytar.setPassword(service, account, secret)),
      delete: (account) => guard(async () => void (await keytar.deletePassword(service, account)))
    }
  }
}
