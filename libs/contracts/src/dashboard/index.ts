// Types only (no runtime code): the web app imports this entry point alone, as `@pay/contracts/dashboard`.
export type * from './session';
export type * from './merchant';
export type * from './batches';
export type * from './approvals';
export type * from './console';
/** The API's error codes: the dashboard says each in the user's language (errors.<CODE>). */
export type { ErrorCode as ApiErrorCode } from '../api/error-code';
