export { assertDatabaseReachable, createPrismaClient, isUniqueViolation, Prisma, PrismaClient, type TransactionClient } from './client/prisma';
export { applyMigrations, ensureDatabase, dropDatabase, MigrationError, type MigrationResult } from './migrations/migrate';
export { MerchantAdmin, MerchantNotFoundError, type MerchantView } from './merchants/merchant-admin';
export { MerchantAuthRepository, type AuthenticatedMerchant, type TokenLookup } from './merchants/merchant-auth.repository';
export { generateToken, hashToken } from './merchants/token';
export { BalanceRepository } from './ledger/balance.repository';
export { verifyLedger, type VerifyReport, type BalanceMismatch } from './ledger/ledger-verifier';
export { PrismaOutboxStore, type OutboxRecord } from './outbox/prisma-outbox.store';
