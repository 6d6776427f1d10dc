/** One field's problem, as the error envelope's `errors` lists it. */
export interface FieldError {
  field: string;
  message: string;
}

/** A failed API call: the error envelope's code, message and field errors, and the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The first message for a field (errors name it as `amount` or `body.amount`), for showing next to the input. */
  fieldMessage(field: string): string | undefined {
    return this.errors.find((e) => e.field === field || e.field.endsWith(`.${field}`))?.message;
  }
}

export function isApiError(e: unknown, code?: string): e is ApiError {
  return e instanceof ApiError && (code === undefined || e.code === code);
}
