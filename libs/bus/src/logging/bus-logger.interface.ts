/** The slice of pino the bus needs; a pino logger satisfies it as is. */
export interface BusLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const noopLogger: BusLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

export function errorDetails(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error)) };
}
