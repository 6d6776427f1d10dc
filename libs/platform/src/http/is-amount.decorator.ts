import { parseAmount } from '@pay/domain';
import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * A money amount in Rupiah as a JSON number: positive, finite, at most two decimals, written
 * without an exponent (1e-7 and 5e-324 are numbers, but not amounts). Exactly what parseAmount
 * accepts, so a value that passes validation always converts to minor units.
 */
export function IsAmount(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isAmount',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message: '$property must be a positive amount in Rupiah with at most two decimals', ...options },
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'number' || !Number.isFinite(value)) return false;
          try {
            return parseAmount(value) > 0n;
          } catch {
            return false;
          }
        },
      },
    });
}
