import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import type { BusinessMetrics } from './ports/metrics.ts';
import { BUSINESS_SERVICE } from '../domain/business-metrics.ts';

/**
 * One logger, one metrics and one tracer per function, configured by the POWERTOOLS_* variables of the
 * function's environment: POWERTOOLS_SERVICE_NAME (set per function by PortalFunction) names the service
 * in every log line, metric and trace, so nothing here overrides it. POWERTOOLS_METRICS_NAMESPACE is the
 * deployment's own (lib/context.ts metricsNamespace), so a staging copy in the same account keeps its
 * metrics apart.
 */
const namespace = process.env.POWERTOOLS_METRICS_NAMESPACE || 'PortaleServiziSociali';
export const logger = new Logger();
export const metrics = new Metrics({ namespace });
export const tracer = new Tracer();

/**
 * The business metrics (functions/domain/business-metrics.ts), each published at once as its own EMF line
 * (a single-metric instance: no middleware to flush it, whichever function counts it), with the fixed
 * service BUSINESS_SERVICE instead of the function's, so a count is one metric whichever function made it.
 */
// Pure: a function that counts no business metric leaves it out of its bundle.
const business = /* @__PURE__ */ new Metrics({ namespace, serviceName: BUSINESS_SERVICE, singleMetric: true });
export const businessMetrics: BusinessMetrics = {
  count(metric, value, ...dimension) {
    if (!(value > 0)) return;
    for (const [name, dimensionValue] of Object.entries(dimension[0] ?? {}))
      business.addDimension(name, String(dimensionValue));
    business.addMetric(metric, MetricUnit.Count, value);
  },
};
