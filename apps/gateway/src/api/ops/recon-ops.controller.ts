import { createHash } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { actorOf } from '@pay/backoffice';
import { ErrorCode } from '@pay/contracts';
import { Reply } from '@pay/platform';
import { ReconciliationDesk } from '@pay/reconciliation';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { Audited, auditAs } from '../../kernel/audit/audit.interceptor';
import { OperatorGuard } from '../../kernel/auth/operator.guard';
import { RequiresRecentAuth } from '../../kernel/auth/session/requires-recent-auth.decorator';
import { ApiEnvelope, errorResponses } from '../../kernel/openapi/api-envelope.decorator';
import { ApiOps, OPS_COMMON_ERRORS } from '../../kernel/openapi/ops-api.decorator';
import { ReconBreakSchema, ReconDayReportSchema, ReconRunSchema, ReconSourceSchema } from './ops.schemas';

const DAY = { example: '2026-12-03', description: 'A Jakarta day, today or before (YYYY-MM-DD)' } as const;
const NAME = /^[a-z][a-z0-9_-]{0,31}$/;
/** The CSV's lines inside the JSON body (64 KiB whole): a bigger file goes through `admin recon run`. */
const CSV_MAX_LINES = 5_000;
const csvOf = (lines: unknown) => (Array.isArray(lines) ? lines.join('\n') : '');

class ReconRunListQuery {
  @ApiPropertyOptional({ ...DAY, description: 'From this day (inclusive)' })
  @IsOptional()
  @IsString()
  from?: string;

  @ApiPropertyOptional({ ...DAY, description: 'Up to this day (inclusive)' })
  @IsOptional()
  @IsString()
  to?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: 'true: only days with a break still open' })
  @IsOptional()
  @IsIn(['true', 'false'])
  open?: 'true' | 'false';

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 366, description: 'Default: 60' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(366)
  limit?: number;
}

class ReconDayDto {
  @ApiProperty(DAY)
  @IsString()
  date!: string;

  @ApiPropertyOptional({
    example: 'qris',
    description: "The acquirer's account in the books (default qris; sandbox: the simulator's sandbox money)",
  })
  @IsOptional()
  @Matches(NAME)
  acquirer?: string;

  @ApiPropertyOptional({
    example: 'snap',
    description: 'The rail whose bank account the statement is of (default snap)',
  })
  @IsOptional()
  @Matches(NAME)
  rail?: string;
}

class RunReconDto extends ReconDayDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 7,
    example: 1,
    description: "T+n: the settlement date expected of the day's pay-ins (default 1)",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(7)
  settlementLagDays?: number;
}

class IngestReconCsvDto extends ReconDayDto {
  @ApiProperty({
    enum: ['report', 'statement'],
    example: 'report',
    description: "report: the acquirer's settlement report of the day's pay-ins; statement: the bank's statement",
  })
  @IsIn(['report', 'statement'])
  kind!: string;

  @ApiProperty({
    type: [String],
    maxItems: CSV_MAX_LINES,
    example: [
      'rrn,reference_no,transaction_date,settlement_date,batch_id,gross,mdr,net',
      '612345678901,QR12,2026-12-03,2026-12-04,STL20261204001,150000.00,1050.00,148950.00',
    ],
    description:
      'The file\'s lines, header row first, without their line breaks (no string of the API holds a control character; the lines are joined with `\\n`): docs/operations/reconciliation.md, "CSV layouts". A bigger file: `admin recon run`.',
  })
  @IsArray()
  @ArrayMaxSize(CSV_MAX_LINES)
  @IsString({ each: true })
  @MaxLength(2000, { each: true })
  lines!: string[];
}

class AssignBreakDto {
  @ApiProperty({ maxLength: 200, example: 'finance@example.id', description: 'Who follows the break up' })
  @IsString()
  @MaxLength(200)
  owner!: string;
}

class ResolveBreakDto {
  @ApiProperty({
    maxLength: 500,
    example: 'Acquirer paid the shortfall in batch STL20261205001; adjustment 7f3c… moved it out of suspense',
  })
  @IsString()
  @MaxLength(500)
  note!: string;
}

const RUN_ID = { name: 'id', description: 'The run id', schema: { type: 'string', format: 'uuid' } } as const;
const BREAK_ID = { name: 'id', description: 'The break id', schema: { type: 'string', format: 'uuid' } } as const;

/** Who acts, as the run and the break record it: the console's `operator:<id>`, or `ops-api` (the admin token). */
const actor = (req: FastifyRequest) => actorOf(auditAs(req)('recon', ''));

/**
 * The three-way reconciliation's back office (docs/operations/reconciliation.md): the days' runs
 * and their reports, a break's owner and resolution, a day run again, a CSV report or statement
 * uploaded. The console's Reconciliation page serves the same routes under /console/api (an
 * operator's session, a recent password for every change); the CLI is `admin recon`. Every change
 * writes its audit row (an upload: its size and digest, not the file).
 */
@ApiOps('Reconciliation')
@Controller()
@UseGuards(OperatorGuard)
export class ReconOpsController {
  constructor(private readonly desk: ReconciliationDesk) {}

  @Get(['ops/recon/runs', 'console/api/recon/runs'])
  @ApiOperation({
    operationId: 'listReconRuns',
    summary: "The reconciled days, newest first: each run's counts and sums per side and its breaks by status",
  })
  @ApiEnvelope(ReconRunSchema, { message: '1 run(s)', messagePattern: '^\\d+ run\\(s\\)$', isArray: true })
  async list(@Query() q: ReconRunListQuery) {
    const runs = await this.desk.list({ from: q.from, to: q.to, open: q.open === 'true', limit: q.limit });
    return new Reply(`${runs.length} run(s)`, runs);
  }

  @Get(['ops/recon/runs/:id', 'console/api/recon/runs/:id'])
  @ApiOperation({
    operationId: 'getReconRun',
    summary:
      "A day's report: the run's counts and exact sums per side, the suspense booked, its sources and every break",
  })
  @ApiParam(RUN_ID)
  @ApiEnvelope(ReconDayReportSchema, { message: 'Reconciliation found' })
  async report(@Param('id') id: string) {
    return new Reply('Reconciliation found', await this.desk.report(id));
  }

  @RequiresRecentAuth()
  @Post(['ops/recon/runs', 'console/api/recon/runs'])
  @HttpCode(200)
  @Audited('recon.run', ({ data }) => `recon-run:${String((data.run as { id?: unknown } | undefined)?.id)}`)
  @ApiOperation({
    operationId: 'runReconciliation',
    summary: 'Reconcile a day (again) with the report and statement ingested for it',
    description:
      'Matches what was ingested for the day against the ledger, keeps the breaks and books what matched (each command once, however often the day is run): a break found again keeps its owner and resolution, one no longer found is cleared. 400 when nothing was ingested for the day.',
  })
  @ApiEnvelope(ReconDayReportSchema, { message: 'Reconciled' })
  async run(@Body() dto: RunReconDto, @Req() req: FastifyRequest) {
    return new Reply('Reconciled', await this.desk.run(dto, actor(req)));
  }

  @RequiresRecentAuth()
  @Post(['ops/recon/sources', 'console/api/recon/sources'])
  @HttpCode(200)
  @Audited(
    'recon.ingest',
    ({ data, body }) => `recon-source:${String(data.kind)}:${String(data.name)}:${String(body.date)}`,
    {
      details: ({ body }) => ({
        date: body.date,
        kind: body.kind,
        acquirer: body.acquirer,
        rail: body.rail,
        lines: Array.isArray(body.lines) ? body.lines.length : 0,
        sha256: createHash('sha256').update(csvOf(body.lines)).digest('hex'),
      }),
    },
  )
  @ApiOperation({
    operationId: 'ingestReconCsv',
    summary: "Upload a day's settlement report or bank statement (CSV); the day is run separately",
    description:
      'Replaces what the day had of that kind. A file with a line that cannot be read is refused whole (400 VALIDATION_ERROR), every bad line named, nothing stored. A statement keeps only the lines of the Jakarta day.',
  })
  @ApiEnvelope(ReconSourceSchema, { message: 'Ingested' })
  async ingest(@Body() dto: IngestReconCsvDto, @Req() req: FastifyRequest) {
    return new Reply('Ingested', await this.desk.ingestCsv(dto, actor(req)));
  }

  @RequiresRecentAuth()
  @Post(['ops/recon/breaks/:id/assign', 'console/api/recon/breaks/:id/assign'])
  @HttpCode(200)
  @Audited('recon.assign', ({ params }) => `recon-break:${params.id}`)
  @ApiOperation({ operationId: 'assignReconBreak', summary: 'Give a break an owner' })
  @ApiParam(BREAK_ID)
  @ApiEnvelope(ReconBreakSchema, { message: 'Break assigned' })
  async assign(@Param('id') id: string, @Body() dto: AssignBreakDto) {
    return new Reply('Break assigned', await this.desk.assign(id, dto.owner));
  }

  @RequiresRecentAuth()
  @Post(['ops/recon/breaks/:id/resolve', 'console/api/recon/breaks/:id/resolve'])
  @HttpCode(200)
  @Audited('recon.resolve', ({ params }) => `recon-break:${params.id}`)
  @ApiOperation({
    operationId: 'resolveReconBreak',
    summary: 'Resolve an open break with a note of what was done',
    description:
      'Only an open break: 409 CONFLICT for one resolved already (its resolution stays as first given) or cleared (no longer found). When money has to move, ask for an adjustment out of or into suspense first and name it in the note.',
  })
  @ApiParam(BREAK_ID)
  @ApiEnvelope(ReconBreakSchema, { message: 'Break resolved' })
  @errorResponses(OPS_COMMON_ERRORS, [ErrorCode.Conflict])
  async resolve(@Param('id') id: string, @Body() dto: ResolveBreakDto, @Req() req: FastifyRequest) {
    return new Reply('Break resolved', await this.desk.resolve(id, dto.note, actor(req)));
  }
}
