import 'reflect-metadata';
import { RouteConfig } from '@nestjs/platform-fastify';
import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import { AddRouteConfig } from './route-config';

describe('AddRouteConfig', () => {
  const configOf = (handler: unknown) =>
    Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler as object) as Record<string, unknown>;

  it('adds its keys to the route config the other decorators set, and keeps what a plain @RouteConfig set', () => {
    class Routes {
      @AddRouteConfig({ a: 1 })
      @AddRouteConfig({ b: 2 })
      first(): string {
        return 'first';
      }

      @AddRouteConfig({ a: 1 })
      @RouteConfig({ c: 3 })
      kept(): string {
        return 'kept';
      }
    }
    expect(configOf(Routes.prototype.first)).toEqual({ a: 1, b: 2 });
    expect(configOf(Routes.prototype.kept)).toEqual({ a: 1, c: 3 });
  });
});
