import type { Session } from '@vigil/proto';
import { accessTokenAal } from '@vigil/ui/session';

/**
 * An admin whose session has not reached aal2 yet: the gateway refuses it every admin route
 * (MFA_REQUIRED or MFA_ENROLMENT_REQUIRED), so the console asks for the code (or enrolment) first.
 * Only chooses a screen; the gateway decides.
 */
export function needsSecondStep(session: Session): boolean {
  return session.user.role === 'admin' && accessTokenAal(session.access_token) !== 'aal2';
}
