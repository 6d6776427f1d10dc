import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ErrorCode } from '@pay/contracts';
import { ApiError } from '../errors/api-error';
import { refuseControlCharacters } from './json-input';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * Which of a field's failed constraints speaks first: presence, then type, then the rest (length,
 * range, format). class-validator reports them in registration order, which for stacked
 * decorators is bottom-up, so a missing accountName used to read "must be shorter than...".
 */
const PRESENCE = new Set(['isDefined', 'isNotEmpty', 'isNotEmptyObject', 'whitelistValidation']);
const TYPE = new Set([
  'isString',
  'isNumber',
  'isInt',
  'isBoolean',
  'isArray',
  'isDate',
  'isObject',
  'isEnum',
  'nestedValidation',
]);
const rank = (constraint: string) => (PRESENCE.has(constraint) ? 0 : TYPE.has(constraint) ? 1 : 2);

/** The one message that applies to a field; it always names the field (a custom message that does not is prefixed with it). */
function fieldMessage(e: ValidationError): string | undefined {
  const constraints = Object.entries(e.constraints ?? {});
  if (constraints.length === 0) return undefined;
  if (e.value === undefined) return `${e.property} is required`;
  const [, message] = constraints
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c[0]) - rank(b.c[0]) || a.i - b.i)[0].c;
  return message.includes(e.property) ? message : `${e.property} ${message}`;
}

/** class-validator's errors as the API reports them: one entry per offending field (nested as `a.b.0`), in body order. */
export function fieldErrors(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const message = fieldMessage(e);
    return [...(message ? [{ field, message }] : []), ...fieldErrors(e.children ?? [], field)];
  });
}

/**
 * A field's error as one line: `<field>: <message>`, without the field named twice
 * ("amount: must be between ...", not "amount: amount must be between ..."). The field's own entry
 * in `errors` keeps its full sentence.
 */
export function fieldLine(field: string, message: string): string {
  // A field class-validator could not name (a body that is not an object) is said as it is.
  if (typeof field !== 'string' || field === '') return message;
  const property = field.split('.').at(-1) ?? field;
  return `${field}: ${message.startsWith(`${property} `) ? message.slice(property.length + 1) : message}`;
}

/** 400 VALIDATION_ERROR: the message is fieldLine of the first offending field; `errors` lists all of them. */
export function validationError(errors: ValidationError[]): ApiError {
  const all = fieldErrors(errors);
  const first = all[0];
  return new ApiError(
    ErrorCode.ValidationError,
    first ? fieldLine(first.field, first.message) : 'Request is not valid',
    all,
  );
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
    exceptionFactory: validationError,
  });
}
