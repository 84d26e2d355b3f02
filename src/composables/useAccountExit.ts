/**
 * Signing out, from wherever the seller asks. A real marketplace's API key is deleted from this
 * computer, so the seller is asked first (the safe answer, Cancel, has the focus); the demo is left at
 * once. The synced orders and listings and the changes staged in Bulk edit stay in the account's
 * snapshot either way, and the question says so. What happens is said next to the button
 * (`notice.before`) and once done (`notice.after`).
 */
import { useMessage, type ButtonProps } from 'naive-ui'
import { computed } from 'vue'
import { signOutNotice } from '../signOutNotice'
import { useSessionStore } from '../stores/session'
import { useConfirm } from './useConfirm'

export function useAccountExit() {
  const session = useSessionStore()
  const message = useMessage()
  const confirm = useConfirm()
  const notice = computed(() => signOutNotice(session.demo, session.marketplaceHost || undefined))

  async function leave(): Promise<void> {
    const { after } = notice.value
    if (!(await session.signOut())) message.error(session.error ?? 'Could not sign out. Try again.')
    else message.info(after, { duration: 8_000 })
  }

  function signOut(): void {
    const { question } = notice.value
    if (question === null) {
      void leave()
      return
    }
    const confirmation = confirm({
      title: 'Sign out',
      content: question,
      positiveText: 'Sign out',
      negativeText: 'Cancel',
      positiveButtonProps: { type: 'error', 'data-testid': 'confirm-sign-out' } as ButtonProps,
      negativeButtonProps: { 'data-testid': 'cancel-sign-out' } as ButtonProps,
      onPositiveClick: async () => {
        confirmation.loading = true
        await leave()
      }
    })
  }

  return { signOut, notice }
}
