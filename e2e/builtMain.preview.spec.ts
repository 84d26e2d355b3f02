/**
 * The main process's code as the build makes it (out/main): every chunk loads, and the core's worker
 * starts from its file and answers. The chunks load only when needed (an import, an export, the demo),
 * so a chunk the build broke would otherwise show only when a seller first needed it.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from '@playwright/test'
import { createSessionSecretStore } from '../electron/core/secrets/secretStore'
import { builtCoreWorkerFile, startCoreHost } from '../electron/worker/coreHost'

test('every chunk of the built main process loads, and the built core worker answers', async () => {
  const worker = builtCoreWorkerFile()
  const chunks = join(process.cwd(), 'out', 'main', 'chunks')
  const files = readdirSync(chunks).filter((name) => name.endsWith('.js'))
  expect(files.length).toBeGreaterThan(0)
  for (const name of files) await expect(import(pathToFileURL(join(chunks, name)).href), name).resolves.toBeDefined()

  const userDataDir = mkdtempSync(join(tmpdir(), 'seller-desk-built-main-'))
  const app = { name: 'Seller Desk', version: '0.0.0-test', platform: process.platform, runtime: 'preview', dateLocale: 'en-US' } as const
  const host = startCoreHost({
    userDataDir,
    workerFile: worker,
    app,
    secrets: { store: createSessionSecretStore(), notice: null },
    emit: () => undefined,
    autoSync: false
  })
  try {
    expect(await host.router.dispatch('app.info', {})).toEqual({ ok: true, value: app })
    expect(await host.router.dispatch('session.get', {})).toMatchObject({ ok: true, value: { signedIn: false } })
  } finally {
    await host.dispose()
    rmSync(userDataDir, { recursive: true, force: true })
  }
})
