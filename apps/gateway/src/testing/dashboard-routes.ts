import { RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, MODULE_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { type Reach, ROLE_REACH } from '../kernel/auth/session/role-reach';
import { MerchantSessionGuard } from '../kernel/auth/session/session.guards';
import { SessionModule } from '../api/session/session.module';
import { DashboardModule } from '../api/dashboard/dashboard.module';

export interface Route {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As declared, :params and all */
  path: string;
  name: string;
  reach: Reach | undefined;
}

const asList = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const join = (...parts: string[]) =>
  `/${parts
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;

/**
 * Every route behind MerchantSessionGuard, read from the modules' controllers as Nest registers
 * them (not a hand list): a route added to the dashboard is walked too.
 */
export function dashboardRoutes(): Route[] {
  const controllers = [DashboardModule, SessionModule].flatMap(
    (m) => (Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, m) as Type[] | undefined) ?? [],
  );
  const routes = controllers.flatMap((controller) => {
    const classGuards = asList<Type>(Reflect.getMetadata(GUARDS_METADATA, controller));
    return Object.getOwnPropertyNames(Object.getPrototypeOf(controller.prototype))
      .concat(Object.getOwnPropertyNames(controller.prototype))
      .filter((name, i, all) => all.indexOf(name) === i && name !== 'constructor')
      .flatMap((name) => {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) return [];
        const guards = [...classGuards, ...asList<Type>(Reflect.getMetadata(GUARDS_METADATA, handler))];
        if (!guards.includes(MerchantSessionGuard)) return [];
        const method = RequestMethod[
          Reflect.getMetadata(METHOD_METADATA, handler) as number
        ].toLowerCase() as Route['method'];
        const reach = (Reflect.getMetadata(ROLE_REACH, handler) ?? Reflect.getMetadata(ROLE_REACH, controller)) as
          Reach | undefined;
        return asList<string>(Reflect.getMetadata(PATH_METADATA, controller)).flatMap((base) =>
          asList<string>(Reflect.getMetadata(PATH_METADATA, handler)).map((path) => ({
            method,
            path: join(base, path),
            name: `${controller.name}.${name}`,
            reach,
          })),
        );
      });
  });
  return routes.filter((r) => r.path.startsWith('/dashboard/api/'));
}
