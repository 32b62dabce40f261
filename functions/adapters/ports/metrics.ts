import type { BusinessMetric, DimensionOf } from '../../domain/business-metrics.ts';

/**
 * The business metrics a use case counts as it does the work (functions/domain/business-metrics.ts names
 * them and says which take a dimension): Powertools Metrics (EMF) in Lambda (functions/adapters/observability.ts
 * `businessMetrics`), nothing locally, a recorder in the unit tests.
 */
export interface BusinessMetrics {
  count<M extends BusinessMetric>(
    metric: M,
    value: number,
    ...dimension: DimensionOf<M> extends undefined ? [] : [DimensionOf<M>]
  ): void;
}

/** For use cases built without metrics (a script, a benchmark). */
export const noMetrics: BusinessMetrics = { count: () => undefined };
