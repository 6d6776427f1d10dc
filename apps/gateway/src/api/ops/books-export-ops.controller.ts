import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProperty } from '@nestjs/swagger';
import { BooksExports } from '@pay/backoffice';
import { Reply } from '@pay/platform';
import { IsIn, IsString } from 'class-validator';
import { Audited } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { ApiEnvelope } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps } from '../../kernel/openapi/ops-api.decorator';
import { BooksExportSchema } from './ops.schemas';

class BooksExportDto {
  @ApiProperty({ example: '2026-11-28', description: 'A Jakarta day, today or before (YYYY-MM-DD)' })
  @IsString()
  date!: string;

  @ApiProperty({ enum: ['journal', 'trial-balance', 'reconciliation'], example: 'journal' })
  @IsIn(['journal', 'trial-balance', 'reconciliation'])
  kind!: string;
}

const message = (status: string) => (status === 'ready' ? 'Export ready' : `Export ${status}`);

/**
 * The finance exports (docs/books.md): a day's journal, trial balance or reconciliation report as CSV, built by the
 * workers like a merchant's recon file and downloaded through a presigned URL; the console serves
 * the same routes under /console/api (an operator's session), the CLI is `admin books export`.
 */
@ApiOps('Ledger')
@Controller()
@UseGuards(OperatorGuard)
export class BooksExportOpsController {
  constructor(private readonly exports: BooksExports) {}

  @Post(['ops/books/exports', 'console/api/books/exports'])
  @HttpCode(200)
  @Audited('books.export', ({ data }) => `books-export:${String(data.id)}`)
  @ApiOperation({
    operationId: 'requestBooksExport',
    summary: "Export a day's journal, trial balance or reconciliation report as CSV",
    description:
      "journal: every posting of the entries of the Jakarta day; trial-balance: every account's debit or credit at the day's close; reconciliation: every reconciliation run of the day (each acquirer and rail), its counts and exact sums then its breaks (a day with no run: the header alone, rows 0, entries 0). First request: queued. The same request while it is built: the same export; once built: ready with a presigned URL (a new one each time), until the day's entries change (reconciliation: until the day is run again or a break is assigned or resolved), then stale. A failed export is answered once (status failed, error); the next request starts a new one.",
  })
  @ApiEnvelope(BooksExportSchema, {
    message: 'Export queued',
    messagePattern: '^Export (queued|running|ready|failed|stale)$',
  })
  async request(@Body() dto: BooksExportDto) {
    const e = await this.exports.request(dto);
    return new Reply(message(e.status), e);
  }

  @Get(['ops/books/exports/:id', 'console/api/books/exports/:id'])
  @ApiOperation({
    operationId: 'getBooksExport',
    summary: 'A finance export: its status, totals and, when ready, the URL',
  })
  @ApiParam({ name: 'id', description: 'The export id', schema: { type: 'string', format: 'uuid' } })
  @ApiEnvelope(BooksExportSchema, {
    message: 'Export ready',
    messagePattern: '^Export (queued|running|ready|failed|stale)$',
  })
  async get(@Param('id') id: string) {
    const e = await this.exports.get(id);
    return new Reply(message(e.status), e);
  }
}
