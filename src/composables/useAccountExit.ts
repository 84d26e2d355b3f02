/**
 * Leaving the signed-in account (sign out, switch to another one, close the app), from wherever the
 * seller asks. Changes staged in Bulk edit and not yet applied belong to the account's open session and
 * are dropped when it closes, so the seller is asked first whenever there are any.
 */
import { useMessage, type ButtonProps } from 'naive-ui'
import { onBeforeUnmount, onMounted } from 'vue'
import { formatCount } from '../formatCount'
import { useConfirm } from './useConfirm'
import { useBulkEditStore } from '../stores/bulkEdit'
import { useSessionStore } from '../stores/session'

export function useAccountExit() {
  const session = useSessionStore()
  const bulk = useBulkEditStore()
  const confirm = useConfirm()
  const message = useMessage()

  /** What leaving would drop, as a sentence to add to a confirmation ('' when nothing is staged). */
  function stagedNote(): string {
    const pending = bulk.summary.changes
    return pending ? ` ${formatCount(pending, 'change', 'changes')} staged in Bulk edit and not applied yet will be discarded.` : ''
  }

  /** True when nothing would be lost, or the seller agreed to `action` anyway. */
  function mayLeave(action: string): Promise<boolean> {
    if (bulk.summary.changes === 0) return Promise.resolve(true)
    return new Promise((resolve) => {
      confirm({
        title: `${action}?`,
        content: `${stagedNote().trim()} Apply them first to keep them.`,
        positiveText: action,
        negativeText: 'Keep working',
        positiveButtonProps: { type: 'warning', 'data-testid': 'confirm-leave' } as ButtonProps,
        onPositiveClick: () => resolve(true),
        // However the dialog goes away otherwise (Keep working, ×, Esc, a click outside): stay.
        // (After a positive click this resolves again, which changes nothing.)
        onAfterLeave: () => resolve(false)
      })
    })
  }

  async function signOut(): Promise<void> {
    if (!(await mayLeave('Sign out'))) return
    if (!(await session.signOut())) message.error(session.error ?? 'Could not sign out. Try again.')
  }

  return { mayLeave, stagedNote, signOut }
}

/**
 * Closing the window or quitting while Bulk edit holds staged changes: the page asks to stay (the
 * browser, or Electron's main side, shows the question). Installed once, by the workspace.
 */
export function useUnloadGuard(): void {
  const bulk = useBulkEditStore()
  const guard = (event: BeforeUnloadEvent) => {
    if (bulk.summary.changes === 0) return
    event.preventDefault()
    event.returnValue = '' // older engines need a value set
  }
  onMounted(() => window.addEventListener('beforeunload', guard))
  onBeforeUnmount(() => window.removeEventListener('beforeunload', guard))
}
