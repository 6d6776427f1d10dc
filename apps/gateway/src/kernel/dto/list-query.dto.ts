import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import type { DisbursementListStatus, ListWindow, PayinListStatus } from '@pay/persistence';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, ValidateBy, type ValidationArguments } from 'class-validator';
import { decodeCursor, type ListKind } from '@pay/persistence';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** A date-time with its offset: without one, the instant would depend on the server's time zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

function validInstant(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    DATE_TIME.test(value) &&
    !Number.isNaN(new Date(value).getTime()) &&
    validCalendarDate(value)
  );
}

/** new Date() rolls 2026-02-30 over to March: the date part must read back unchanged. */
function validCalendarDate(value: string): boolean {
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

function Instant(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date-time', example: '2026-11-01T00:00:00+07:00', description }),
    IsOptional(),
    ValidateBy({
      name: 'isInstant',
      validator: {
        validate: validInstant,
        defaultMessage: (a?: ValidationArguments) =>
          `${a?.property} must be an ISO 8601 date-time with an offset, e.g. 2026-11-01T00:00:00+07:00`,
      },
    }),
  );
}

function Cursor(kind: ListKind) {
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      description: 'nextCursor of the previous page (opaque); absent for the first page',
    }),
    IsOptional(),
    IsString(),
    ValidateBy({
      name: 'isListCursor',
      validator: {
        validate: (v: unknown) => typeof v === 'string' && decodeCursor(kind, v) !== undefined,
        defaultMessage: () => `cursor must be a nextCursor this list returned`,
      },
    }),
  );
}

/** Query of every list: page size, position, and a half-open range [from, to) of creation times. */
abstract class ListQuery {
  /** The list (a method, not a field: the validation pipe accepts only the query's own fields) */
  protected abstract kind(): ListKind;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_LIMIT,
    default: DEFAULT_LIMIT,
    description: `Rows per page, 1 to ${MAX_LIMIT}; more is refused, not reduced`,
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_LIMIT)
  limit?: number;

  abstract cursor?: string;

  @Instant('Rows created at or after this instant')
  from?: string;

  @Instant('Rows created before this instant (exclusive); must be later than from')
  @ValidateBy({
    name: 'isAfterFrom',
    validator: {
      validate: (to: unknown, a: ValidationArguments) => {
        const from = (a.object as ListQuery).from;
        return !validInstant(from) || !validInstant(to) || new Date(to as string) > new Date(from as string);
      },
      defaultMessage: () => 'to must be later than from',
    },
  })
  to?: string;

  /** The repository's window; the query is valid (the pipe checked it). */
  window(merchantId: number, limit: number): ListWindow {
    return {
      merchantId,
      limit,
      after: this.cursor === undefined ? undefined : decodeCursor(this.kind(), this.cursor),
      from: this.from === undefined ? undefined : new Date(this.from),
      to: this.to === undefined ? undefined : new Date(this.to),
    };
  }
}

export class MovementListQuery extends ListQuery {
  protected kind(): ListKind {
    return 'movement';
  }

  @Cursor('movement')
  cursor?: string;
}

export class PayinListQuery extends ListQuery {
  protected kind(): ListKind {
    return 'payin';
  }

  @Cursor('payin')
  cursor?: string;

  @ApiPropertyOptional({
    enum: ['pending', 'success', 'failed', 'expired'],
    description: 'Only pay-ins with this status (expired: a pending code past its expiry)',
  })
  @IsOptional()
  @IsIn(['pending', 'success', 'failed', 'expired'])
  status?: PayinListStatus;
}

export class DisbursementListQuery extends ListQuery {
  protected kind(): ListKind {
    return 'disbursement';
  }

  @Cursor('disbursement')
  cursor?: string;

  @ApiPropertyOptional({
    enum: ['pending', 'success', 'failed', 'reversed'],
    description: 'Only disbursements with this status',
  })
  @IsOptional()
  @IsIn(['pending', 'success', 'failed', 'reversed'])
  status?: DisbursementListStatus;
}
