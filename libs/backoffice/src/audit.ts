import type { NewAuditEntry } from '@pay/persistence';

/**
 * Who is acting, for the audit log of a change written in the change's own transaction: the face
 * that has an operator (the console) passes it and the use case names the action and its target;
 * the ops API and the CLI pass none (they keep no audit log).
 */
export type AuditAs = (action: string, target: string) => NewAuditEntry;
