import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

/** One logger, one metrics and one tracer per function, configured by the POWERTOOLS_* variables. */
export const logger = new Logger({ serviceName: 'portale-servizi-sociali' });
export const metrics = new Metrics({ namespace: 'PortaleServiziSociali', serviceName: 'portale-servizi-sociali' });
export const tracer = new Tracer({ serviceName: 'portale-servizi-sociali' });
