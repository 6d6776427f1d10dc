import type { z } from 'zod';

/*
 * What a setting's schema carries besides its rule, for the configuration reference and
 * .env.example (both generated from the schemas: npm run docs:config). Every setting has a
 * `description`; the rest only where the schema alone would say it wrong or not at all.
 */
declare module 'zod' {
  interface GlobalMeta {
    /** The shared part of the configuration this setting belongs to (configSection), documented once */
    section?: string;
    /** The type as the reference names it, where the schema's own is too plain (a PostgreSQL URL) */
    typeText?: string;
    /** The default as the reference shows it, where the schema's is computed or follows another setting */
    defaultText?: string;
    /** When the setting must be set although the schema lets it be absent (a rule across settings) */
    requiredWhen?: string;
    /** What NODE_ENV=production refuses of it */
    production?: string;
    /** The value .env.example shows, for a setting without a default */
    example?: string;
    /** false: left out of .env.example (the platform sets it, not the operator) */
    inEnvExample?: boolean;
  }
}

/**
 * Marks each setting of `shape` as part of the shared configuration section `name` (the key of
 * the typed config it becomes, say `database`): the reference documents it once, with the
 * services that read it.
 */
export function configSection<T extends Record<string, z.ZodType>>(name: string, shape: T): T {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.meta({ section: name })])) as T;
}
