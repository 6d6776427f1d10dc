import { applyDecorators } from '@nestjs/common';
import { IsInt, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';
import { ApiError } from '../errors/api-error';
import { IsAmount } from './is-amount.decorator';
import { createValidationPipe, fieldLine } from './validation.pipe';

class TransferLike {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  accountName!: string;

  // applyDecorators registers in source order, stacked decorators bottom-up: the order must not matter.
  @(applyDecorators(
    IsString(),
    IsNotEmpty(),
    MaxLength(8),
    Matches(/^[A-Z]+$/, { message: 'must be capital letters' }),
  ) as PropertyDecorator)
  code!: string;

  @IsAmount()
  amount!: number;

  @IsOptional()
  @IsInt()
  @Min(60)
  expirySeconds?: number;
}

async function refusal(body: object): Promise<ApiError> {
  try {
    await createValidationPipe().transform(body, { type: 'body', metatype: TransferLike });
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('accepted');
}

const valid = { accountName: 'BUDI SANTOSO', code: 'ABC', amount: 10000 };

describe('validation messages: the one that applies first, always naming the field', () => {
  it('a missing field is required (not "too long")', async () => {
    const { accountName: _, ...body } = valid;
    const err = await refusal(body);
    expect(err.message).toBe('accountName: is required');
    expect(err.fieldErrors).toEqual([{ field: 'accountName', message: 'accountName is required' }]);
  });

  it('an empty string should not be empty; a too long one gets the length message; a wrong type the type message', async () => {
    expect((await refusal({ ...valid, accountName: '' })).message).toBe('accountName: should not be empty');
    expect((await refusal({ ...valid, accountName: 'x'.repeat(101) })).message).toBe(
      'accountName: must be shorter than or equal to 100 characters',
    );
    expect((await refusal({ ...valid, accountName: 42 })).message).toBe('accountName: must be a string');
    expect((await refusal({ ...valid, code: 7 })).message).toBe('code: must be a string');
    expect((await refusal({ ...valid, expirySeconds: 'soon' })).message).toBe(
      'expirySeconds: must be an integer number',
    );
    expect((await refusal({ ...valid, expirySeconds: 5 })).message).toBe('expirySeconds: must not be less than 60');
  });

  it('a custom message that does not name the field is prefixed with it', async () => {
    expect((await refusal({ ...valid, code: 'abc' })).fieldErrors).toEqual([
      { field: 'code', message: 'code must be capital letters' },
    ]);
  });

  it('errors lists every offending field once, unknown fields included', async () => {
    const err = await refusal({ accountName: 'x'.repeat(101), code: '', amount: -1, extra: 1 });
    expect(err.message).toBe('extra: property extra should not exist');
    expect(err.fieldErrors).toEqual([
      { field: 'extra', message: 'property extra should not exist' },
      { field: 'accountName', message: 'accountName must be shorter than or equal to 100 characters' },
      { field: 'code', message: 'code should not be empty' },
      { field: 'amount', message: 'amount must be a positive amount in Rupiah with at most two decimals' },
    ]);
  });
});

describe('fieldLine', () => {
  it('names the field once, keeps a message that does not start with it, and says an unnamed one as it is', () => {
    expect(fieldLine('amount', 'amount must be a number')).toBe('amount: must be a number');
    expect(fieldLine('fee.amount', 'amount must be a number')).toBe('fee.amount: must be a number');
    expect(fieldLine('amount', 'must be between 1 and 2')).toBe('amount: must be between 1 and 2');
    expect(fieldLine(undefined as unknown as string, 'an array is not an object')).toBe('an array is not an object');
  });
});
