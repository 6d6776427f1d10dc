import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

/**
 * Like @RouteConfig of @nestjs/platform-fastify, but adds its keys to the route's Fastify config
 * instead of replacing it: several decorators (@RateLimit, @BalanceWithToken) each set their own
 * key on one route, and onRequest hooks read them before Nest runs.
 */
export function AddRouteConfig(config: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor) => {
    const current =
      (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, descriptor.value as object) as
        Record<string, unknown> | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...config }, descriptor.value as object);
    return descriptor;
  };
}
