/**
 * Signing out, from wherever the seller asks. Nothing needs a question first: changes staged in Bulk edit
 * are saved with the account (in its snapshot) and are there again when it is opened next.
 */
import { useMessage } from 'naive-ui'
import { useSessionStore } from '../stores/session'

export function useAccountExit() {
  const session = useSessionStore()
  const message = useMessage()

  async function signOut(): Promise<void> {
    if (!(await session.signOut())) message.error(session.error ?? 'Could not sign out. Try again.')
  }

  return { signOut }
}
