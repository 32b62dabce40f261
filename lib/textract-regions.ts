/**
 * The AWS Regions (commercial partition) where Amazon Textract has an endpoint, as botocore lists them in
 * botocore/data/endpoints.json (github.com/boto/botocore, commit 0e6e2404b85dc336dd2889814e089bde7d1a4c55,
 * 2026-08-07; the same list as AWS's "Amazon Textract endpoints and quotas" page). Milan (eu-south-1), the
 * portal's own region, is not one of them. Re-read both sources when AWS opens Textract in a new Region.
 */
export const TEXTRACT_REGIONS = [
  'ap-northeast-2',
  'ap-south-1',
  'ap-southeast-1',
  'ap-southeast-2',
  'ca-central-1',
  'eu-central-1',
  'eu-south-2',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
] as const;

/** Frankfurt: the EU Region with Textract nearest to Milan. */
export const DEFAULT_TEXTRACT_REGION = 'eu-central-1';
