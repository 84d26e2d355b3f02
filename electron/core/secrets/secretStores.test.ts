/**
 * Secret stores against the real thing: keytar on the Secret Service (GNOME Keyring in a private D-Bus
 * session, see scripts/with-keyring.sh), and the encrypted-file fallback with real AES encryption
 * standing in for Electron's safeStorage (which only exists inside Electron).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { chooseSecretStore } from './chooseSecretStore'
import { createEncryptedFileSecretStore, type Encryptor } from './encryptedFileSecretStore'
import { openKeytarSecretStore } from './keytarSecretStore'

const service = `Seller Desk test ${process.pid}-${Date.now()}`
const hasSecretService = process.platform !== 'linux' || Boolean(process.env['DBUS_SESSION_BUS_ADDRESS'])

function aesEncryptor(): Encryptor {
  const key = randomBytes(32)
  return {
    encrypt(plain) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body])
    },
    decrypt(data) {
      const buffer = Buffer.from(data)
      const decipher = createDecipheriv('aes-256-gcm', key, buffer.subarray(0, 12))
      decipher.setAuthTag(buffer.subarray(12, 28))
      return Buffer.concat([decipher.update(buffer.subarray(28)), decipher.final()]).toString('utf8')
    }
  }
}

describe.skipIf(!hasSecretService)('keychain (real Secret Service)', () => {
  it('sets, gets and deletes a key per base URL', async () => {
    const opened = await openKeytarSecretStore(service)
    expect(opened.store, 'reason' in opened ? opened.reason : '').not.toBeNull()
    const store = opened.store!
    expect(store.kind).toBe('keychain')
    await store.set('https://a.example.com', 'key-a-123')
    await store.set('https://b.example.com', 'key-b-456')
    expect(await store.get('https://a.example.com')).toBe('key-a-123')
    expect(await store.get('https://b.example.com')).toBe('key-b-456')
    await store.delete('https://a.example.com')
    expect(await store.get('https://a.example.com')).toBeNull()
    expect(await store.get('https://b.example.com')).toBe('key-b-456')
    await store.delete('https://b.example.com')
    await store.delete('https://never-stored.example.com') // deleting nothing is fine
  })

  it('is what chooseSecretStore picks when it answers', async () => {
    const choice = await chooseSecretStore({ service })
    expect(choice.store.kind).toBe('keychain')
    expect(choice.notice).toBeNull()
  })
})

describe('encrypted-file fallback', () => {
  it('keeps keys encrypted on disk, replaced atomically', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-secrets-'))
    const file = join(dir, 'api-keys.enc.json')
    const store = createEncryptedFileSecretStore(file, aesEncryptor())
    await Promise.all([store.set('https://a.example.com', 'key-a-secret'), store.set('https://b.example.com', 'key-b-secret')])
    expect(await store.get('https://a.example.com')).toBe('key-a-secret')
    expect(await store.get('https://b.example.com')).toBe('key-b-secret')
    const onDisk = readFileSync(file, 'utf8')
    expect(onDisk).not.toContain('key-a-secret')
    expect(Object.keys(JSON.parse(onDisk) as object)).toEqual(['https://a.example.com', 'https://b.example.com'])
    await store.delete('https://a.example.com')
    expect(await store.get('https://a.example.com')).toBeNull()
    expect(readdirSync(dir)).toEqual(['api-keys.enc.json']) // no temp files left
  })

  it('says so when a key cannot be decrypted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-secrets-'))
    const file = join(dir, 'api-keys.enc.json')
    await createEncryptedFileSecretStore(file, aesEncryptor()).set('https://a.example.com', 'k')
    await expect(createEncryptedFileSecretStore(file, aesEncryptor()).get('https://a.example.com')).rejects.toMatchObject({ kind: 'keychain' })
  })

  it('is chosen when the keychain is off and OS encryption is real', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-secrets-'))
    const choice = await chooseSecretStore({ service, keychain: false, fileEncryption: { encryptor: aesEncryptor(), weak: false, file: join(dir, 'k.json') } })
    expect(choice.store.kind).toBe('encrypted-file')
    expect(choice.notice).toBeNull()
  })

  it('falls back to this session only, with a notice, when encryption is only basic_text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'seller-desk-secrets-'))
    const choice = await chooseSecretStore({ service, keychain: false, fileEncryption: { encryptor: aesEncryptor(), weak: true, file: join(dir, 'k.json') } })
    expect(choice.store.kind).toBe('session-only')
    expect(choice.notice).toMatch(/this session only/)
    expect(choice.notice).toMatch(/plain-text/)
    await choice.store.set('https://a.example.com', 'k1')
    expect(await choice.store.get('https://a.example.com')).toBe('k1')
    expect(readdirSync(dir)).toEqual([]) // nothing written
  })
})
