/**
 * Signing out, from wherever the seller asks. Nothing needs a question first: the synced orders and
 * listings and the changes staged in Bulk edit stay in the account's snapshot on this computer and are
 * there again when it is opened next. What happens is said next to the button (`notice.before`) and
 * once done (`notice.after`).
 */
import { useMessage } from 'naive-ui'
import { computed } from 'vue'
import { signOutNotice } from '../signOutNotice'
import { useSessionStore } from '../stores/session'

export function useAccountExit() {
  const session = useSessionStore()
  const message = useMessage()
  const notice = computed(() => signOutNotice(session.demo))

  async function signOut(): Promise<void> {
    const { after } = notice.value
    if (!(await session.signOut())) message.error(session.error ?? 'Could not sign out. Try again.')
    else message.info(after, { duration: 8_000 })
  }

  return { signOut, notice }
}
