/**
 * Debian's Python with openpyxl: a writer and reader of workbooks that shares no code with the app's, for
 * tests of what other spreadsheets make of our files and what we make of theirs. Tests that need it skip
 * where it is not installed.
 */
import { execFileSync } from 'node:child_process'

export const PYTHON = '/usr/bin/python3'

export const hasOpenpyxl = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import openpyxl'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
