// Types only (no runtime code): the web app imports this entry point alone, as `@pay/contracts/dashboard`.
export type * from './session';
export type * from './merchant';
export type * from './console';
