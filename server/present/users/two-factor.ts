/** The API shapes of two-factor sign-in and app passwords. The secret shows only in `presentTwoFactorSetup`, the recovery codes only in a change that made them. */
import type { AppPasswordFacts, TotpEnrolment, TwoFactorChange, TwoFactorStatus } from '../../../data/index.js'
import type * as Api from '../../api/index.js'

export const presentTwoFactorStatus = (status: TwoFactorStatus): Api.TwoFactorStatus => ({
  enabled: status.enabled,
  enabled_at: status.enabled_at ?? null,
  recovery_codes_left: status.recovery_codes_left,
})

export const presentTwoFactorChange = (change: TwoFactorChange): Api.TwoFactorChange => ({
  ...presentTwoFactorStatus(change.status),
  ...(change.recovery_codes ? { recovery_codes: change.recovery_codes } : {}),
})

export const presentTwoFactorSetup = (enrolment: TotpEnrolment): Api.TwoFactorSetup => ({
  secret: enrolment.secret,
  otpauth_uri: enrolment.uri,
  qr_code: enrolment.qr_code,
})

export const presentAppPassword = (p: AppPasswordFacts): Api.AppPassword => ({
  id: String(p.id),
  name: p.name,
  created_at: p.created_at,
  last_used_at: p.last_used_at ?? null,
})
