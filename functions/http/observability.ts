import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * One logger, one metrics and one tracer per function, configured by the POWERTOOLS_* variables of the
 * function's environment: POWERTOOLS_SERVICE_NAME (set per function by PortalFunction) names the service
 * in every log line, metric and trace, so nothing here overrides it.
 */
export const logger = new Logger();
export const metrics = new Metrics({ namespace: 'PortaleServiziSociali' });
export const tracer = new Tracer();
