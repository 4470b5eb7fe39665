/**
 * Request validation options, per part of the request (Fastify compiles one validator per route and part,
 * and tells the compiler which part: body, querystring, params or headers).
 *
 * Fastify's default Ajv coerces types and removes unknown properties everywhere, so `{"name":["x"]}`
 * passed as the string "x", `{"username": 42}` as "42", and a field the schema does not know was
 * silently dropped with a 2xx. Skald's rule (docs/DECISIONS.md): a field has exactly its declared type
 * and an unknown field is refused with a 400 naming it.
 *  - JSON bodies: no coercion, no removal: the client sent typed JSON, a wrong type is a client error.
 *  - query strings and path parameters: text by nature (`?page=2`), so they keep Fastify's coercion of
 *    "2" to a declared integer; unknown parameters are refused like unknown body fields.
 *  - headers: Fastify's defaults (a header schema lists the headers it reads, never all of them).
 * Everything else (formats, defaults, allErrors off, shared schemas) stays as Fastify's own compiler has it.
 */
import { createRequire } from 'node:module';
import type AjvCompiler from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';

/** The `schemaController.compilersFactory.buildValidator` shape (the kind Fastify's own default is). */
type ValidatorFactory = AjvCompiler.BuildCompilerFromPool;
type PoolOptions = NonNullable<Parameters<ValidatorFactory>[1]>;
type CustomOptions = NonNullable<PoolOptions['customOptions']>;
/** What Fastify calls the built compiler with (the package's own typing names Ajv's compile signature instead). */
type RouteCompiler = FastifySchemaCompiler<unknown>;

export const BODY_VALIDATION: Readonly<CustomOptions> = { coerceTypes: false, removeAdditional: false };
export const TEXT_PART_VALIDATION: Readonly<CustomOptions> = { coerceTypes: 'array', removeAdditional: false };

/**
 * Fastify's own validator compiler package, resolved from fastify's location: it is fastify's dependency
 * (so always the version Fastify itself compiles with, and installed wherever fastify is), not one of
 * ours. Declaring it in package.json would allow a plain import.
 */
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
const fromPool = (fromFastify('@fastify/ajv-compiler') as typeof AjvCompiler)();

/** `schemaController.compilersFactory.buildValidator` of createHttpApp. */
export const buildPartValidator: ValidatorFactory = (externalSchemas, serverOptions) => {
  const compiler = (custom: Readonly<CustomOptions>): RouteCompiler => {
    const options = {
      plugins: serverOptions?.plugins ?? [],
      ...(serverOptions?.onCreate ? { onCreate: serverOptions.onCreate } : {}),
      customOptions: { ...(serverOptions?.customOptions as CustomOptions | undefined), ...custom },
    } as PoolOptions;
    return fromPool(externalSchemas, options) as unknown as RouteCompiler;
  };
  const body = compiler(BODY_VALIDATION);
  const text = compiler(TEXT_PART_VALIDATION);
  const headers = compiler({});
  const byPart: RouteCompiler = (route) => (route.httpPart === 'body' ? body : route.httpPart === 'headers' ? headers : text)(route);
  return byPart as unknown as ReturnType<ValidatorFactory>;
};
