/**
 * Picks the secret store in Electron: keytar first; else safeStorage's encrypted file in userData;
 * when Linux safeStorage is only `basic_text`, the key is kept for the session only (with a notice).
 */
import { join } from 'node:path'
import { app, safeStorage } from 'electron'
import { chooseSecretStore, type SecretStoreChoice } from '../core/secrets/chooseSecretStore'

export function chooseElectronSecretStore(): Promise<SecretStoreChoice> {
  const available = safeStorage.isEncryptionAvailable()
  const weak = process.platform === 'linux' && available && safeStorage.getSelectedStorageBackend() === 'basic_text'
  return chooseSecretStore({
    service: app.getName(),
    fileEncryption: {
      file: join(app.getPath('userData'), 'api-keys.enc.json'),
      weak,
      encryptor: available
        ? { encrypt: (plain) => safeStorage.encryptString(plain), decrypt: (cipher) => safeStorage.decryptString(Buffer.from(cipher)) }
        : null
    }
  })
}
