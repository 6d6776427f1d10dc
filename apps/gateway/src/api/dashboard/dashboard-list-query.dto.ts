import type { ListWindow } from '@pay/persistence';
import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { DisbursementListQuery, PayinListQuery } from '../../kernel/dto/list-query.dto';

// The API's list queries (status, from, to, cursor, limit: the same rules) and a search by the
// merchant's own id of the transaction (those that start with what was typed).

export class DashboardPayinListQuery extends PayinListQuery {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[\x21-\x7E]+$/, { message: '$property must be 1 to 64 printable characters without spaces' })
  merchantTrxId?: string;

  override window(merchantId: number, limit: number): ListWindow {
    return { ...super.window(merchantId, limit), merchantTrxId: this.merchantTrxId };
  }
}

export class DashboardPayoutListQuery extends DisbursementListQuery {
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  @Matches(/^[\x21-\x7E]+$/, { message: '$property must be 1 to 64 printable characters without spaces' })
  merchantTrxId?: string;

  override window(merchantId: number, limit: number): ListWindow {
    return { ...super.window(merchantId, limit), merchantTrxId: this.merchantTrxId };
  }
}
