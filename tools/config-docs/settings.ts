import { z } from 'zod';

/** One environment variable of a service, as its schema defines it. */
export interface Setting {
  name: string;
  /** The shared section it belongs to (configSection), if any */
  section?: string;
  description: string;
  /** Type and constraints, for a reader */
  type: string;
  /** The default for a reader ('—': none) */
  defaultText: string;
  /** The value .env.example gives it ('': unset, the default applies) */
  exampleValue: string;
  /** 'yes', 'no', or when */
  required: string;
  /** Enum values, for .env.example's comment */
  choices?: string[];
  requiredWhen?: string;
  production?: string;
  inEnvExample: boolean;
}

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  format?: string;
}

/** The object of variables behind an app's schema (its refinements and the transform to the typed config). */
export function envObject(schema: z.ZodType): z.ZodObject {
  let s: z.ZodType = schema;
  while (s instanceof z.ZodPipe) s = s.in as z.ZodType;
  if (!(s instanceof z.ZodObject)) throw new Error('a config schema is an object of environment variables');
  return s;
}

/** Every setting of a config schema, in its order. */
export function settingsOf(schema: z.ZodType): Setting[] {
  return Object.entries(envObject(schema).shape).map(([name, s]) => describeSetting(name, s as z.ZodType));
}

/**
 * What a setting's schema says: the metadata of every layer (the outer wins: a helper like
 * redisUrl() names the type, the setting describes itself), its default and whether it may be
 * absent, and the type of its innermost layer.
 */
export function describeSetting(name: string, schema: z.ZodType): Setting {
  const layers: z.ZodType[] = [];
  let s: z.ZodType = schema;
  let optional = false;
  let defaulted: z.ZodDefault | undefined;
  for (;;) {
    layers.push(s);
    if (s instanceof z.ZodDefault) {
      defaulted ??= s;
      s = s.unwrap() as z.ZodType;
    } else if (s instanceof z.ZodOptional) {
      optional = true;
      s = s.unwrap() as z.ZodType;
    } else if (s instanceof z.ZodPipe) {
      s = s.in as z.ZodType;
    } else break;
  }
  const meta: z.GlobalMeta = Object.assign({}, ...layers.reverse().map((l) => z.globalRegistry.get(l) ?? {}));
  if (!meta.description) throw new Error(`${name} has no description: add .meta({ description }) to its schema`);
  const json = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  // Read only when the schema's default is shown: a computed one (a function) may name this machine.
  const value = defaulted && meta.defaultText === undefined ? String(defaulted.def.defaultValue) : undefined;
  return {
    name,
    section: meta.section,
    description: meta.description,
    type: meta.typeText ?? typeOf(json),
    defaultText: meta.defaultText ?? (value === undefined ? '—' : value === '' ? 'empty' : `\`${value}\``),
    exampleValue: meta.example ?? value ?? '',
    required: defaulted || optional ? (meta.requiredWhen ?? 'no') : 'yes',
    choices: meta.typeText ? undefined : json.enum?.map(String),
    requiredWhen: meta.requiredWhen,
    production: meta.production,
    inEnvExample: meta.inEnvExample ?? true,
  };
}

function typeOf(json: JsonSchema): string {
  if (json.enum) return `one of ${json.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  if (json.type === 'integer' || json.type === 'number') {
    // An integer's own bounds (Number.MAX_SAFE_INTEGER) are no constraint of the setting.
    const bound = (n: number | undefined) =>
      n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n;
    const min = bound(json.minimum ?? (json.exclusiveMinimum === undefined ? undefined : json.exclusiveMinimum + 1));
    const max = bound(json.maximum ?? (json.exclusiveMaximum === undefined ? undefined : json.exclusiveMaximum - 1));
    if (min !== undefined && max !== undefined) return `${json.type}, ${min} to ${max}`;
    if (min !== undefined) return `${json.type}, at least ${min}`;
    if (max !== undefined) return `${json.type}, at most ${max}`;
    return json.type;
  }
  if (json.format === 'uri') return 'URL';
  if (json.minLength !== undefined && json.minLength > 1) return `string, at least ${json.minLength} characters`;
  return 'string';
}
