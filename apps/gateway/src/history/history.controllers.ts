import { Controller, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HistoryRepository } from '@pay/persistence';
import { Reply } from '@pay/platform';
import type { AuthenticatedRequest } from '../auth/authenticated-request';
import { BalanceMovementPageResponse, DisbursementPageResponse, PayinPageResponse } from './history.openapi';
import { type Page, presentDisbursementItem, presentMovement, presentPayinItem, toPage } from './history.presenter';
import { DEFAULT_LIMIT, DisbursementListQuery, MovementListQuery, PayinListQuery } from './list-query.dto';
import { ListRoute } from './list-routes';

const MESSAGE = 'Query success';

@ApiTags('Balance')
@Controller('api/v1/balance')
export class BalanceMovementsController {
  constructor(private readonly history: HistoryRepository) {}

  @ListRoute('movements', "The merchant's balance movements: every ledger event with the balance it left", BalanceMovementPageResponse)
  async movements(@Req() req: AuthenticatedRequest, @Query() q: MovementListQuery): Promise<Reply<Page<ReturnType<typeof presentMovement>>>> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const rows = await this.history.movements(q.window(req.merchant.id, limit + 1));
    return new Reply(MESSAGE, toPage('movement', rows, limit, (m) => ({ createdAt: m.occurredAt, id: m.id.toString() }), presentMovement));
  }
}

@ApiTags('Pay-in')
@Controller('api/v1/payin')
export class PayinListController {
  constructor(private readonly history: HistoryRepository) {}

  @ListRoute('list', "The merchant's QRIS pay-ins, by status and creation time", PayinPageResponse)
  async list(@Req() req: AuthenticatedRequest, @Query() q: PayinListQuery): Promise<Reply<Page<ReturnType<typeof presentPayinItem>>>> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const rows = await this.history.payins(q.window(req.merchant.id, limit + 1), q.status);
    const now = new Date();
    return new Reply(MESSAGE, toPage('payin', rows, limit, (p) => p, (p) => presentPayinItem(p, req.merchant, now)));
  }
}

@ApiTags('Disbursement')
@Controller('api/v1/disbursement')
export class DisbursementListController {
  constructor(private readonly history: HistoryRepository) {}

  @ListRoute('list', "The merchant's disbursements, by status and creation time (refused attempts are not transactions and are not listed)", DisbursementPageResponse)
  async list(@Req() req: AuthenticatedRequest, @Query() q: DisbursementListQuery): Promise<Reply<Page<ReturnType<typeof presentDisbursementItem>>>> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const rows = await this.history.disbursements(q.window(req.merchant.id, limit + 1), q.status);
    return new Reply(MESSAGE, toPage('disbursement', rows, limit, (d) => d, (d) => presentDisbursementItem(d, req.merchant)));
  }
}
