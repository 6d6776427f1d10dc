import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { ApiError } from '../errors/api-error';
import { refuseControlCharacters } from './json-input';

function flatten(errors: ValidationError[], parent = ''): { field: string; message: string }[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** Every body, query and path parameter is refused when a string in it carries a control character, whatever its DTO says. */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type !== 'custom') refuseControlCharacters(value, metadata.data ?? '');
    return super.transform(value, metadata);
  }
}

/**
 * Strict body validation: unknown fields are refused, types are not coerced silently, no string
 * carries a control character. The message names the first offending field; `errors` lists all of them.
 */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => {
      const fieldErrors = flatten(errors);
      const first = fieldErrors[0];
      const message = first ? `${first.field}: ${first.message}` : 'Request is not valid';
      return new ApiError(ErrorCode.ValidationError, message, fieldErrors);
    },
  });
}
