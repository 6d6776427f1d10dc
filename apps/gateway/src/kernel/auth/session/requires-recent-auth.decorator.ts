import { SetMetadata } from '@nestjs/common';

export const REQUIRES_RECENT_AUTH = Symbol('requiresRecentAuth');

/**
 * Step-up ("sudo mode", decision 0023): the session guards answer 401 REAUTH_REQUIRED unless the
 * session's user proved its password (and TOTP code) within the last 10 minutes, at sign-in or
 * with POST .../api/session/confirm. For the actions a stolen session must not be able to take
 * (API tokens, the webhook secret, the callback URL, the allowlist, the second factor, every
 * console change). Never on reads. On a handler or a controller.
 */
export const RequiresRecentAuth = () => SetMetadata(REQUIRES_RECENT_AUTH, true);
