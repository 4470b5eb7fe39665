/**
 * An object with exactly the given properties, every required one present, optional ones present or not,
 * and no other, for the hot event schemas (a batch's logs). TypeBox compiles `additionalProperties: false`
 * into `Object.getOwnPropertyNames(value).length === N`: an array per object, so every consumer group paid
 * ~130 bytes of garbage per log for it (an allocation profile). Here the
 * properties are checked by the compiled object schema as before, and "no other" by counting the keys with
 * for...in against the required ones plus the optional ones present (a read of each optional name), which
 * allocates nothing. The same acceptance for parsed JSON (own, enumerable keys; an optional key is present
 * when its value is not undefined, which JSON cannot express); the static type is the closed object's.
 */
import Type from 'typebox';
import type { TProperties, TObject } from 'typebox';

export function ClosedObject<const P extends TProperties>(properties: P): TObject<P> {
  const optional = Object.keys(properties).filter((key) => Type.IsOptional(properties[key]));
  const required = Object.keys(properties).length - optional.length;
  return Type.Refine(
    Type.Object(properties),
    (value: object) => {
      let keys = 0;
      for (const _key in value) keys += 1;
      let expected = required;
      for (let i = 0; i < optional.length; i++) if ((value as Record<string, unknown>)[optional[i]!] !== undefined) expected += 1;
      return keys === expected;
    },
    () => 'must not have additional properties',
  ) as TObject<P>;
}
