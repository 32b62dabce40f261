import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import { systemClock } from '../adapters/ports/clock.ts';
import { logger, tracer } from '../adapters/observability.ts';
import * as jobRepository from '../jobs/repository.ts';
import type { JobTaskStep } from '../jobs/state-machine.ts';
import { makeJobWorker, type JobKind, type JobRun } from '../jobs/use-cases.ts';
import { secretsFromManager } from '../adapters/secrets.ts';

export interface JobTaskEvent extends JobRun {
  step: JobTaskStep;
  error?: { Error?: string; Cause?: string } | null;
}

/**
 * A job function over its kinds (one of functions/jobs/job-functions.ts): one step of a background job
 * (functions/jobs/state-machine.ts). A thrown error keeps its name for Retry/Catch.
 */
export function jobTask(kinds: Record<string, JobKind>) {
  const worker = makeJobWorker({ jobs: jobRepository, kinds, clock: systemClock });
  async function runJobStep(event: JobTaskEvent): Promise<unknown> {
    switch (event.step) {
      case 'Slice':
        return worker.slice(event);
      case 'MarkFailed':
        return worker.markFailed(event);
    }
  }
  return {
    runJobStep,
    handler: middy(runJobStep)
      .use(injectLambdaContext(logger))
      .use(captureLambdaHandler(tracer))
      .use(secretsFromManager()),
  };
}
