import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

/** A page of audit rows, newest first: the console's audit log and the merchant's activity. */
export class AuditPageQuery {
  /** An entry id (the previous page's nextBefore): entries older than it */
  @IsOptional()
  @Matches(/^[1-9]\d{0,17}$/, { message: 'before must be an audit entry id' })
  before?: string;

  /** Default 50 */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit?: number;
}
