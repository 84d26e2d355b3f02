/**
 * Picks where API keys are kept, best first: the OS keychain, then an OS-encrypted file, then memory
 * for this session only (with a notice saying so).
 */
import type { Encryptor } from './encryptedFileSecretStore'
import { createEncryptedFileSecretStore } from './encryptedFileSecretStore'
import { openKeytarSecretStore } from './keytarSecretStore'
import { createSessionSecretStore, type SecretStore } from './secretStore'

export interface SecretStoreChoice {
  store: SecretStore
  /** Shown to the seller when the key cannot be kept safely across restarts. */
  notice: string | null
}

export interface FileEncryption {
  /** Null when the OS offers no encryption. */
  encryptor: Encryptor | null
  /** True when encryption exists but is not real protection (Linux safeStorage `basic_text`). */
  weak: boolean
  file: string
}

export async function chooseSecretStore(options: {
  service: string
  /** Skip the keychain (tests of the fallbacks, or a setting). */
  keychain?: boolean
  fileEncryption?: FileEncryption
}): Promise<SecretStoreChoice> {
  let reason = 'the system keychain is turned off'
  if (options.keychain !== false) {
    const opened = await openKeytarSecretStore(options.service)
    if (opened.store) return { store: opened.store, notice: null }
    reason = opened.reason
  }
  const encryption = options.fileEncryption
  if (encryption?.encryptor && !encryption.weak) {
    return { store: createEncryptedFileSecretStore(encryption.file, encryption.encryptor), notice: null }
  }
  const why = encryption?.weak ? 'this computer only offers plain-text storage for secrets' : reason
  return {
    store: createSessionSecretStore(),
    notice: `Your API key is kept for this session only because ${why}. You will need to sign in again after restarting Seller Desk.`
  }
}
