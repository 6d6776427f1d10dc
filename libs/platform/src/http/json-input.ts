import { ErrorCode } from '@pay/contracts';
import { ApiError } from '../errors/api-error';

/** The deepest nesting of objects and arrays a request body may have; the API's own bodies are flat. */
export const MAX_JSON_DEPTH = 32;

/**
 * True when the JSON text nests objects or arrays deeper than `max`. A scan of the text, before
 * anything parses it: class-transformer and class-validator walk a parsed body recursively, so
 * a body nested thousands deep would overflow the stack there. Brackets inside strings are text.
 */
export function jsonNestingExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

export function tooDeeplyNested(): ApiError {
  return new ApiError(
    ErrorCode.ValidationError,
    `Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
  );
}

/** C0 controls (NUL included), DEL and C1 controls: no field of the API has a use for them. */
const CONTROL_CHARACTER = /\p{Cc}/u;
const CONTROL_MESSAGE = 'must not contain control characters';

/** The path of every string in `value` (a parsed body, query or parameter) that holds a control character. */
function controlCharacterFields(value: unknown, path: string, found: string[]): string[] {
  if (typeof value === 'string') {
    if (CONTROL_CHARACTER.test(value)) found.push(path);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value))
      controlCharacterFields(child, path ? `${path}.${key}` : key, found);
  }
  return found;
}

/**
 * Refuses input carrying a control character in any string, naming each field: PostgreSQL
 * refuses NUL in text outright (a 500 otherwise), and the other controls have no business in
 * references, names or account numbers (they corrupt logs, CSV exports and bank files).
 * `root` names a value that is itself one field (a path parameter).
 */
export function refuseControlCharacters(value: unknown, root = ''): void {
  const fields = controlCharacterFields(value, root, []);
  if (fields.length === 0) return;
  const errors = fields.map((field) => ({ field: field || 'body', message: CONTROL_MESSAGE }));
  throw new ApiError(ErrorCode.ValidationError, `${errors[0].field}: ${CONTROL_MESSAGE}`, errors);
}
