/** GET /logs/my/histogram and /photologs/my/histogram: matching logs over time, by level. */
import Type from 'typebox';
import type { Static } from 'typebox';

export const LOG_HISTOGRAM_STEPS = ['1m', '5m', '15m', '30m', '1h', '3h', '6h', '12h', '1d', '2d', '7d', '14d', '30d'] as const;
export const LogHistogramStepSchema = Type.Union([
  Type.Literal('1m'),
  Type.Literal('5m'),
  Type.Literal('15m'),
  Type.Literal('30m'),
  Type.Literal('1h'),
  Type.Literal('3h'),
  Type.Literal('6h'),
  Type.Literal('12h'),
  Type.Literal('1d'),
  Type.Literal('2d'),
  Type.Literal('7d'),
  Type.Literal('14d'),
  Type.Literal('30d'),
]);
export type LogHistogramStep = (typeof LOG_HISTOGRAM_STEPS)[number];

/** One bar: the logs created in [from, to), per lower-cased level. */
export const LogHistogramBucketSchema = Type.Object(
  {
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time' }),
    total: Type.Integer({ minimum: 0 }),
    /** Lower-cased level -> count; levels without logs in the bar are absent. */
    levels: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type LogHistogramBucket = Static<typeof LogHistogramBucketSchema>;

export const LogHistogramSchema = Type.Object(
  {
    /** The bar width (bars follow the time zone's wall clock; null when nothing matches). */
    step: Type.Union([LogHistogramStepSchema, Type.Null()]),
    /** The zone the bars are aligned in (the request's timeZone, UTC when absent). */
    timeZone: Type.String(),
    /** Oldest first; empty when nothing matches. */
    buckets: Type.Array(LogHistogramBucketSchema),
    /** Sum of the bars. Equals X-Total-Count of the list with the same filters unless capped. */
    total: Type.Integer({ minimum: 0 }),
    /**
     * More logs match than the count cap (TOTAL_COUNT_CAP): only the newest are counted, the bars start at
     * countedFrom and every bar drawn is exact.
     */
    capped: Type.Boolean(),
    countedFrom: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type LogHistogram = Static<typeof LogHistogramSchema>;
