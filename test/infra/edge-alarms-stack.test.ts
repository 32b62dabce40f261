import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { stackNamesOf } from '../../lib/stage-config.ts';
import { sharedPortal } from '../support/portal-app.ts';

/**
 * CloudFront's alarms: its metrics exist only in us-east-1, so they live in a stack there, deployed after the web
 * stack whose distribution they watch, with a topic of their own (an alarm notifies a topic of its region).
 */
type Json = any;

describe('edge alarms stack: CloudFront 5xx (us-east-1)', () => {
  const portal = sharedPortal({ bundle: false, context: { alarmEmail: 'reperibile@comune.example.it' } });
  const template = () => Template.fromStack(portal.edgeAlarms);
  const alarms = () => Object.values(template().findResources('AWS::CloudWatch::Alarm')).map((r: Json) => r.Properties);

  it('is in us-east-1 and comes after the web stack in the app and in npm run deploy / rollback', () => {
    expect(portal.edgeAlarms.region).toBe('us-east-1');
    const names = portal.stacks.map((s) => s.stackName);
    expect(names.indexOf(portal.edgeAlarms.stackName)).toBeGreaterThan(names.indexOf(portal.web.stackName));
    expect(stackNamesOf('Portale', { edge: true, edgeAlarms: true })).toEqual(names);
    // The smoke test reads the functions of the stage's region only.
    expect(stackNamesOf('Portale')).not.toContain(portal.edgeAlarms.stackName);
  });

  it('pages on CloudFront’s share of 5xx by the API’s rule (5% from 5 errors and 20 requests, 2 periods of 3), on the web stack’s distribution', () => {
    const alarm = alarms().find((a) => a.AlarmName === 'Portale - CloudFront - quota di risposte 5xx');
    expect(alarm).toMatchObject({
      Threshold: 5,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(alarm.Metrics.find((m: Json) => m.Expression).Expression).toBe(
      'IF(requests >= 20 AND FILL(rate, 0) * requests / 100 >= 5, FILL(rate, 0), 0)',
    );
    const metrics = alarm.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => m.MetricStat);
    expect(metrics.map((m: Json) => [m.Metric.Namespace, m.Metric.MetricName, m.Stat])).toEqual([
      ['AWS/CloudFront', '5xxErrorRate', 'Average'],
      ['AWS/CloudFront', 'Requests', 'Sum'],
    ]);
    for (const m of metrics) {
      const dimensions = Object.fromEntries(m.Metric.Dimensions.map((d: Json) => [d.Name, d.Value]));
      expect(dimensions.Region).toBe('Global');
      // The web stack's distribution, read from its outputs in eu-south-1 at deploy time (a weak reference: nothing locks it).
      expect(dimensions.DistributionId['Fn::GetStackOutput']).toMatchObject({
        StackName: portal.web.stackName,
        Region: portal.web.region,
      });
      const output = Template.fromStack(portal.web).toJSON().Outputs[
        dimensions.DistributionId['Fn::GetStackOutput'].OutputName
      ];
      expect(output.Value).toEqual({
        Ref: portal.web.resolve((portal.web.distribution.node.defaultChild as Json).logicalId),
      });
    }
  });

  it('notifies a topic of its own, encrypted with its own key, with the stage’s alarm e-mail subscribed; and its failed deliveries page', () => {
    template().resourceCountIs('AWS::KMS::Key', 1);
    template().hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    const [topic] = Object.values(template().findResources('AWS::SNS::Topic')) as Json[];
    expect(topic.Properties.KmsMasterKeyId).toBeDefined();
    template().hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'reperibile@comune.example.it',
    });
    const topicId = Object.keys(template().findResources('AWS::SNS::Topic'))[0];
    for (const alarm of alarms()) {
      expect(alarm.AlarmActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions, alarm.AlarmName).toEqual([{ Ref: topicId }]);
    }
    expect(alarms().find((a) => a.AlarmName === 'Portale - SNS us-east-1 - notifiche non consegnate')).toMatchObject({
      Namespace: 'AWS/SNS',
      MetricName: 'NumberOfNotificationsFailed',
    });
  });
});
