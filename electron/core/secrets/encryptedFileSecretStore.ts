/**
 * Keys encrypted by the OS (Electron safeStorage, injected as an Encryptor) in one file in the
 * user-data folder, replaced atomically on every change.
 */
import { SellerDeskError } from '../../shared/errors'
import { readJsonFile, writeFileAtomic } from '../atomicFile'
import type { SecretStore } from './secretStore'

export interface Encryptor {
  encrypt(plain: string): Uint8Array
  decrypt(cipher: Uint8Array): string
}

type FileShape = Record<string, string> // account → base64 cipher text

export function createEncryptedFileSecretStore(file: string, encryptor: Encryptor): SecretStore {
  // One write at a time, so two quick changes cannot lose each other.
  let queue: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }
  const load = async (): Promise<FileShape> => (await readJsonFile<FileShape>(file, {})).value

  return {
    kind: 'encrypted-file',
    get: (account) =>
      serial(async () => {
        const cipher = (await load())[account]
        if (cipher === undefined) return null
        try {
          return encryptor.decrypt(Buffer.from(cipher, 'base64'))
        } catch {
          throw new SellerDeskError('keychain', 'The saved API key could not be decrypted on this computer. Sign in again.')
        }
      }),
    set: (account, secret) =>
      serial(async () => {
        const all = await load()
        all[account] = Buffer.from(encryptor.encrypt(secret)).toString('base64')
        await writeFileAtomic(file, JSON.stringify(all))
      }),
    delete: (account) =>
      serial(async () => {
        const all = await load()
        if (!(account in all)) return
        delete all[account]
        await writeFileAtomic(file, JSON.stringify(all))
      })
  }
}
