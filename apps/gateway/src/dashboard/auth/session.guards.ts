import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';

/**
 * PLACEHOLDER (replaced by the auth work of issue 17): the merchant dashboard's session guard.
 * Reads the pay_dash_session cookie, checks the session and CSRF token, and sets the principal
 * (setPrincipal) of a merchant user; refuses operators.
 */
@Injectable()
export class MerchantSessionGuard implements CanActivate {
  canActivate(_context: ExecutionContext): boolean {
    throw new Error('MerchantSessionGuard: not built yet');
  }
}

/** PLACEHOLDER: the operator console's session guard (pay_console_session), operators only. */
@Injectable()
export class OperatorSessionGuard implements CanActivate {
  canActivate(_context: ExecutionContext): boolean {
    throw new Error('OperatorSessionGuard: not built yet');
  }
}
