import { Controller, Query, Req } from '@nestjs/common';
import { HistoryRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../../kernel/auth/merchant/authenticated-request';
import { RequiresScope } from '../../kernel/auth/merchant/requires-scope';
import { ApiMerchant } from '../../kernel/openapi/api-envelope.decorator';
import { BalanceMovementPage, DisbursementPage, PayinPage } from './openapi/history.openapi';
import {
  type Page,
  presentDisbursementItem,
  presentMovement,
  presentPayinItem,
  toPage,
} from '../../kernel/presenters/history.presenter';
import {
  DEFAULT_LIMIT,
  DisbursementListQuery,
  MovementListQuery,
  PayinListQuery,
} from '../../kernel/dto/list-query.dto';
import { ListRoute } from './list-routes';

const MESSAGE = 'Query success';

@ApiMerchant('Balance')
@Controller('api/v1/balance')
export class BalanceMovementsController {
  constructor(private readonly history: HistoryRepository) {}

  @RequiresScope('balance:read')
  @ListRoute(
    'movements',
    'listBalanceMovements',
    "The merchant's balance movements: every ledger event with the balance it left",
    BalanceMovementPage,
  )
  async movements(
    @Req() req: AuthenticatedRequest,
    @Query() q: MovementListQuery,
  ): Promise<Reply<Page<ReturnType<typeof presentMovement>>>> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const rows = await this.history.movements(q.window(req.merchant.id, limit + 1));
    return new Reply(
      MESSAGE,
      toPage('movement', rows, limit, (m) => ({ createdAt: m.occurredAt, id: m.id.toString() }), presentMovement),
    );
  }
}

@ApiMerchant('Pay-in')
@Controller('api/v1/payin')
export class PayinListController {
  constructor(private readonly history: HistoryRepository) {}

  @RequiresScope('payins:read')
  @ListRoute('list', 'listPayins', "The merchant's QRIS pay-ins, by status and creation time", PayinPage)
  async list(
    @Req() req: AuthenticatedRequest,
    @Query() q: PayinListQuery,
  ): Promise<Reply<Page<ReturnType<typeof presentPayinItem>>>> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const rows = await this.history.payins(q.window(req.merchant.id, limit + 1), q.status);
    const now = new Date();
    return new Reply(
      MESSAGE,
      toPage(
        'payin',
        rows,
        limit,
        (p) => p,
        (p) => presentPayinItem(p, req.merchant, now),
      ),
    );
  }
}

@ApiMerchant('Disbursement')
@Controller('api/v1/disbursement')
export class DisbursementListController {
  constructor(private readonly history: HistoryRepository) {}

  @RequiresScope('payouts:read')
  @ListRoute(
    'list',
    'listDisbursements',
    "The merchant's disbursements, by status and creation time (refused attempts are not transactions and are not listed)",
    DisbursementPage,
  )
  async list(
    @Req() req: AuthenticatedRequest,
    @Query() q: DisbursementListQuery,
  ): Promise<Reply<Page<ReturnType<typeof presentDisbursementItem>>>> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const rows = await this.history.disbursements(q.window(req.merchant.id, limit + 1), q.status);
    return new Reply(
      MESSAGE,
      toPage(
        'disbursement',
        rows,
        limit,
        (d) => d,
        (d) => presentDisbursementItem(d, req.merchant),
      ),
    );
  }
}
