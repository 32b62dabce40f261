import { workerStack } from './stack-context.ts';

// A setup file of the integration and browser tiers: before a test file loads, the environment its worker's
// stack gave its Lambdas (TABLE_NAME, DYNAMODB_ENDPOINT…), so product code a test imports reaches that stack.
Object.assign(process.env, workerStack().env);
