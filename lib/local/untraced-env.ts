/**
 * The environment of a function run outside Lambda (the local portal, the tests, the benchmarks): no metrics,
 * no traces, and the X-Ray SDK under Powertools' Tracer in manual mode. In its automatic mode that SDK hooks
 * every promise of the process as soon as it loads, traced or not (cls-hooked async hooks, aws-xray-sdk-node#420):
 * measured here, a promise costs about 12 times as much, and in one process that includes every promise of
 * dynalite, the SDK clients and the tests.
 */
export const untracedFunctionEnv = {
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  POWERTOOLS_METRICS_DISABLED: 'true',
  POWERTOOLS_TRACE_ENABLED: 'false',
  AWS_XRAY_MANUAL_MODE: 'true',
} as const;
