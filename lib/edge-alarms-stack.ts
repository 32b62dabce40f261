import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { PortalAlarms, alarmTopic } from './alarms.ts';
import { metricsNamespace } from './context.ts';

export interface EdgeAlarmsStackProps extends StackProps {
  stackPrefix: string;
  /** Who gets the alarms by e-mail (context alarmEmail), as for the operations stack's topic. */
  alarmEmail?: string;
  /** The web stack's distribution (a cross-region reference: read from eu-south-1 at deploy time). */
  distributionId: string;
}

/**
 * The alarms whose metrics exist only in us-east-1 (CloudFront's), with their own topic there: an alarm lives in
 * its metric's region and notifies a topic of its own region. Deployed after the web stack, whose distribution
 * it watches.
 */
export class EdgeAlarmsStack extends Stack {
  readonly topic: sns.Topic;
  readonly alarms: PortalAlarms;

  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    super(scope, id, props);
    this.topic = alarmTopic(this, props.stackPrefix, props.alarmEmail);
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.topic.topicArn,
      description: 'Subscribe whoever is on call to this topic too (us-east-1: CloudFront’s alarms)',
    });
    this.alarms = new PortalAlarms(this, 'Alarms', {
      stackPrefix: props.stackPrefix,
      topic: this.topic,
      namespace: metricsNamespace(props.stackPrefix),
    });
    this.alarms.watchDistribution(props.distributionId);
    this.alarms.watchTopic(this.topic, 'degli allarmi di CloudFront (us-east-1)', 'SNS us-east-1');
  }
}
