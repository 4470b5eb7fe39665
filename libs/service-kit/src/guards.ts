/**
 * Who may call decides first, the shape of the request second. A route's guards (app.authenticate,
 * requireServerRole, requireSiteRole, and a service's own checks made with `guard()`) run at preValidation,
 * before the schema looks at the request: a caller without a token gets 401, a stranger to the server 404,
 * a member below the role 403, and none of them a 400 telling what the body lacks.
 *
 * One rule, installed by createHttpApp on every app, so no route can forget it: routes keep declaring
 * `preHandler: [app.authenticate, requireServerRole(model, 'admin')]`, and when a route is registered its
 * guards move to the front of its preValidation hooks. At preValidation the body is parsed but NOT
 * validated, and the query and params are not coerced yet: a guard reads only strings and treats anything
 * else as absent (serverIdFromRequest), so a server id that is missing or not a string is "no server",
 * 404 for a signed-in caller. On a route with guards every preHandler hook must be one: a check declared
 * there without `guard()` would run after validation, so start-up refuses the route and names it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

/** Resolves with the reply once it answered (Fastify then runs nothing more), else with nothing. */
export type GuardHook = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

// A registry-wide symbol: the mark survives the kit being loaded twice under different specifiers.
const GUARD = Symbol.for('skald.service-kit.guard');

/** Marks an access check as a guard: it runs before validation on whichever route declares it. */
export function guard<T extends GuardHook>(hook: T): T {
  Object.defineProperty(hook, GUARD, { value: true });
  return hook;
}

export function isGuard(hook: unknown): boolean {
  return typeof hook === 'function' && (hook as unknown as Record<symbol, unknown>)[GUARD] === true;
}

function hooksOf(declared: unknown): unknown[] {
  return declared === undefined ? [] : Array.isArray(declared) ? [...(declared as unknown[])] : [declared];
}

function routeName(route: RouteOptions): string {
  return `${[route.method].flat().join(',')} ${route.url}`;
}

/** The route with its preHandler guards moved to the front of preValidation (unchanged without guards). */
export function moveGuardsBeforeValidation(route: RouteOptions): void {
  const preHandler = hooksOf(route.preHandler);
  if (!preHandler.some(isGuard)) return;
  if (!preHandler.every(isGuard)) {
    throw new Error(`${routeName(route)}: a preHandler hook next to the route's guards is not marked guard(); access checks must run before validation`);
  }
  route.preValidation = [...preHandler, ...hooksOf(route.preValidation)] as RouteOptions['preValidation'];
  route.preHandler = [];
}

/** Installs the rule on an app; routes registered afterwards, in any plugin, are covered. */
export function installGuardsBeforeValidation(app: FastifyInstance): void {
  app.addHook('onRoute', moveGuardsBeforeValidation);
}
