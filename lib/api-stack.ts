import path from 'node:path';
import { ArnFormat, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Construct } from 'constructs';
import { resources, routes, type Resource } from '../functions/routes.ts';
import type { PortalContext } from './context.ts';
import type { DataStack } from './data-stack.ts';
import { NOTICE_PDF_PREFIX } from '../functions/domain/payments.ts';
import { acknowledge, acknowledgeWildcardResource } from './nag.ts';
import { functionAccess, timeoutOf, type FunctionAccess } from './function-access.ts';
import { BackgroundJobs } from './background-jobs.ts';
import { PaymentExport } from './payment-export.ts';
import { PortalFunction } from './portal-function.ts';
import { gpdBinder, gpdCouncilSettings, gpdNoticeBinder } from './gpd-binding.ts';
import { openApiFileCommand } from './openapi-file.ts';
import { ORIGIN_VERIFY_VARIABLE } from '../functions/adapters/origin-verify.ts';

export interface ApiStackProps extends StackProps {
  /** The endpoint and its JWT authorizer, created by the web stack (see WebStack for why). */
  httpApi: apigwv2.IHttpApi;
  authorizer: apigwv2.IHttpRouteAuthorizer;
  /** The origin-verify header's secret (the web stack's): every API function refuses a request without its value. */
  originVerifySecret: secretsmanager.ISecret;
  data: Pick<DataStack, 'table' | 'documents' | 'exports' | 'pdndKey'>;
  /** The Secrets Manager secret with MyPay's endpoint, entity code and password (context mypaySecretName). */
  mypaySecretName: string;
  /** MyPay's mode: pagoPA's modello unico (default) or the older WISP (context mypayModelloUnico). */
  mypayModelloUnico?: boolean;
  /** MyPay's payment type requires a due date (context mypayScadenzaObbligatoria; default false). */
  mypayScadenzaObbligatoria?: boolean;
  /** The entity's application code on MyPay (context mypayApplicationCode). */
  mypayApplicationCode?: string;
  /** How long the export waits for MyPay to process an import (context mypayImportMaxWaitMinutes; default 48 hours). */
  mypayImportMaxWaitMinutes?: number;
  /** Sender, support address and SES identity (context mailFrom, supportEmail, mailIdentityArn). */
  mail: PortalContext['mail'];
  /** IO app: base URL and the secret with the subscription key (context ioBaseUrl, ioSecretName). */
  io: PortalContext['io'];
  /** PDND and INPS's ISEE e-services (context pdnd*, inps*), and the first day of the December reminders. */
  pdnd: PortalContext['pdnd'];
  inps: PortalContext['inps'];
  iseeReminderFrom: string;
  /**
   * The platform the council bills through (context paymentPlatform) and GPD's settings: on 'gpd' the functions
   * that call the platform get GPD's settings and secret instead of MyPay's.
   */
  paymentPlatform?: PortalContext['paymentPlatform'];
  gpd?: PortalContext['gpd'];
  /** The portal's own address (the web stack's URL): MyPay sends citizens back there only, the ISEE reminders link to it (PORTAL_URL). */
  portalUrl: string;
}

/**
 * The stateless API: one function per resource of the route table and one route per entry of it,
 * behind a JWT authorizer unless the route is public. Redeploys without touching data or users.
 */
export class ApiStack extends Stack {
  readonly functions: Record<Resource, PortalFunction>;
  readonly paymentExport: PaymentExport;
  readonly backgroundJobs: BackgroundJobs;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    /** The client certificate's secret, imported once for every function that asks INPS. */
    let inpsClientCert: secretsmanager.ISecret | undefined;
    // The key that signs list cursors (functions/adapters/dynamo.ts). Like MyPay's and IO's secrets it is read at
    // run time (functions/adapters/secrets.ts): the functions' configuration holds its ARN, never its value.
    const cursorSecret = new secretsmanager.Secret(this, 'CursorSecret', {
      description: 'Signs the list cursors of the API (HMAC)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    acknowledge(cursorSecret, {
      'AwsSolutions-SMG4':
        'A cursor lives for one browsing session; a new value (and a redeploy) only invalidates the cursors in flight, so rotation is done by hand if ever needed.',
    });
    const mypaySecret = secretsmanager.Secret.fromSecretNameV2(this, 'MyPaySecret', props.mypaySecretName);
    const ioSecret = secretsmanager.Secret.fromSecretNameV2(this, 'IoSecret', props.io.secretName);
    // On pagoPA GPD the functions that call the payment platform (functionAccess 'mypay', the export's task) get GPD's instead.
    const bindGpd = props.paymentPlatform === 'gpd' ? gpdBinder(this, props.gpd!) : undefined;
    // The notices API, 'Avviso PDF' and the flow e-mail print pagoPA's notices on GPD: they need the creditor, not the keys.
    const bindGpdNotices = props.paymentPlatform === 'gpd' ? gpdNoticeBinder(props.gpd!) : undefined;
    const mailIdentityArn =
      props.mail.identityArn ??
      this.formatArn({
        service: 'ses',
        resource: 'identity',
        resourceName: props.mail.from.split('@').pop()!,
        arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
      });
    const bind: {
      [K in keyof Required<FunctionAccess>]: (fn: PortalFunction, access: Required<FunctionAccess>[K]) => void;
    } = {
      table: (fn, access) =>
        fn.bindTable(props.data.table, access).bindSecret('CURSOR_SECRET_ARN', cursorSecret, cursorSecret.secretArn),
      documents: (fn, access) => fn.bindBucket('DOCUMENTS_BUCKET', props.data.documents, access),
      exports: (fn, access) => fn.bindBucket('EXPORTS_BUCKET', props.data.exports, access),
      noticePdfs: (fn) => {
        const noticeObjects = props.data.exports.arnForObjects(`${NOTICE_PDF_PREFIX}*`);
        fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:PutObject'], resources: [noticeObjects] }));
        acknowledgeWildcardResource(
          fn.role!,
          noticeObjects,
          `EXPORTS_BUCKET ${NOTICE_PDF_PREFIX}: one notice PDF per position (its IUD), named at run time.`,
        );
      },
      mypay: (fn) => {
        if (bindGpd) return bindGpd(fn);
        // Endpoint, entity code and password: the secret's fields, read at run time.
        fn.bindSecret('MYPAY_SECRET_NAME', mypaySecret);
        fn.addEnvironment('MYPAY_MODELLO_UNICO', String(props.mypayModelloUnico ?? true)).addEnvironment(
          'MYPAY_SCADENZA_OBBLIGATORIA',
          String(props.mypayScadenzaObbligatoria ?? false),
        );
        if (props.mypayApplicationCode) fn.addEnvironment('MYPAY_APPLICATION_CODE', props.mypayApplicationCode);
      },
      mail: (fn) => {
        fn.addEnvironment('MAIL_FROM', props.mail.from).addEnvironment('SUPPORT_EMAIL', props.mail.supportAddress);
        if (props.mail.sendRate) fn.addEnvironment('MAIL_SEND_RATE', String(props.mail.sendRate));
        // Least privilege: SendEmail only, on the one identity, and only from the configured sender.
        fn.addToRolePolicy(
          new iam.PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: [mailIdentityArn],
            conditions: { StringEquals: { 'ses:FromAddress': props.mail.from } },
          }),
        );
      },
      inps: (fn) => {
        const { pdnd, inps } = props;
        // Mutual TLS when the agreement asks for it: the function reads the certificate from its secret at run time.
        if (inps.clientCertSecretName) {
          inpsClientCert ??= secretsmanager.Secret.fromSecretNameV2(
            this,
            'InpsClientCertificate',
            inps.clientCertSecretName,
          );
          inpsClientCert.grantRead(fn);
          fn.addEnvironment('INPS_CLIENT_CERT_SECRET', inps.clientCertSecretName);
        }
        const settings: Record<string, string> = {
          PDND_TOKEN_URL: pdnd.tokenUrl,
          PDND_CLIENT_ID: pdnd.clientId,
          PDND_KID: pdnd.kid,
          PDND_AUDIENCE: pdnd.assertionAudience,
          PDND_KMS_KEY_ID: props.data.pdndKey.keyArn,
          INPS_ENDPOINT: inps.endpoint,
          INPS_AUDIENCE: inps.audience,
          INPS_ATTESTAZIONE_OPERATION: inps.attestazione.operation,
          INPS_ATTESTAZIONE_ENDPOINT: inps.attestazione.endpoint,
          INPS_ATTESTAZIONE_AUDIENCE: inps.attestazione.audience,
          INPS_INDICATORE_ENDPOINT: inps.indicatore.endpoint,
          INPS_INDICATORE_AUDIENCE: inps.indicatore.audience,
          INPS_PURPOSE_ATTESTAZIONE: inps.purposeAttestazione,
          INPS_PURPOSE_INDICATORE: inps.purposeIndicatore ?? '',
          INPS_DAILY_ESTIMATE: String(inps.dailyEstimate),
          INPS_USER_ID: inps.userId,
          INPS_CODICE_UFFICIO: inps.codiceUfficio,
          INPS_BENEFIT_CODE: inps.benefitCode,
          INPS_AUDIT_REST_02: String(inps.auditRest02),
          INPS_KEEP_FULL_HOUSEHOLD: String(inps.keepFullHousehold),
          INPS_RATE_PER_SECOND: String(inps.ratePerSecond),
          ISEE_REMINDER_FROM: props.iseeReminderFrom,
        };
        for (const [name, value] of Object.entries(settings)) fn.addEnvironment(name, value);
        // The client assertion is signed inside KMS: Sign on this one key, nothing else (not even GetPublicKey).
        props.data.pdndKey.grant(fn, 'kms:Sign');
      },
      portal: (fn) => fn.addEnvironment('PORTAL_URL', props.portalUrl),
      io: (fn) => {
        // The key (the secret's apiKey field; organizationFiscalCode beside it is the preflight's), read at run time.
        fn.addEnvironment('IO_BASE_URL', props.io.baseUrl).bindSecret('IO_SECRET_NAME', ioSecret);
      },
    };

    this.functions = Object.fromEntries(
      resources.map((resource) => {
        const fn = new PortalFunction(this, resource, {
          entry: `functions/entry/${resource}.ts`,
          serviceName: resource,
          description: `API: ${resource}`,
          timeout: Duration.seconds(timeoutOf(resource)),
          // The public function serves openapi.json as written at build time, beside its bundle (no schema in it).
          ...(resource === 'public' && {
            afterBundling: (outputDir: string) => [openApiFileCommand(path.join(outputDir, 'openapi.json'))],
          }),
        });
        fn.bindSecret(ORIGIN_VERIFY_VARIABLE, props.originVerifySecret, props.originVerifySecret.secretArn);
        for (const [what, access] of Object.entries(functionAccess[resource]) as [keyof FunctionAccess, unknown][]) {
          (bind[what] as (fn: PortalFunction, access: unknown) => void)(fn, access);
        }
        // Every function knows the platform's name: the flows page says where the flows went (its title, what a flow
        // shows), and every answer names pagoPA where the spec's text says MyPay (http/handler.ts).
        if (props.paymentPlatform === 'gpd') fn.addEnvironment('PAYMENT_PLATFORM', 'gpd');
        // 'Invia a pagoPA' checks the council's pagoPA settings before it starts (not MyPay's configuration page).
        if (resource === 'flows' && props.paymentPlatform === 'gpd')
          for (const [name, value] of Object.entries(gpdCouncilSettings(props.gpd!))) fn.addEnvironment(name, value);
        if (resource === 'notices' || resource === 'notice-downloads') bindGpdNotices?.(fn);
        return [resource, fn];
      }),
    ) as Record<Resource, PortalFunction>;

    // 'Invia a MyPay': the flows function starts the export's state machine, whose steps talk to MyPay.
    this.paymentExport = new PaymentExport(this, 'PaymentExport', {
      table: props.data.table,
      exports: props.data.exports,
      mypaySecret,
      importMaxWaitMinutes: props.mypayImportMaxWaitMinutes,
      scadenzaObbligatoria: props.mypayScadenzaObbligatoria,
      applicationCode: props.mypayApplicationCode,
      bindGpd,
      starter: this.functions.flows,
    });

    // Work longer than a request ('Sincronizza', the month's generation and CSV, the enrolment import's 'Applica',
    // 'Reset ore', the flow e-mail, 'Rendicontazione', the ISEE refreshes from INPS): those functions start the
    // background jobs' state machine; the ISEE schedules too.
    this.backgroundJobs = new BackgroundJobs(this, 'BackgroundJobs', {
      table: props.data.table,
      starters: [
        this.functions.payments,
        this.functions['enrolment-csv'],
        this.functions.notices,
        this.functions.reporting,
        this.functions.enrolments,
        this.functions.isee,
      ],
      iseeReminderFrom: props.iseeReminderFrom,
    });
    // Each job function gets what its own kinds need (functions/jobs/job-functions.ts), nothing more.
    const { PaymentJobs, EnrolmentJobs, NoticeJobs, IseeJobs } = this.backgroundJobs.jobFunctions;
    for (const jobFunction of Object.values(this.backgroundJobs.jobFunctions))
      jobFunction.bindSecret('CURSOR_SECRET_ARN', cursorSecret, cursorSecret.secretArn);
    // 'Verifica / genera CSV' leaves its file in the exports bucket; 'Rendicontazione' asks MyPay.
    bind.exports(PaymentJobs, 'RW');
    bind.mypay(PaymentJobs, true);
    // An enrolment import removing a subscription deletes its files.
    bind.documents(EnrolmentJobs, 'RW');
    // The flow e-mail reads MyPay's PDFs and the list cursors of a month's positions, and sends through SES and IO.
    bind.exports(NoticeJobs, 'R');
    bind.mail(NoticeJobs, 'SEND');
    bindGpdNotices?.(NoticeJobs);
    // The flow e-mail keeps to the account's sending rate, which it reads (SES v2 GetAccount: SendQuota).
    NoticeJobs.addToRolePolicy(new iam.PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] }));
    acknowledge(NoticeJobs.role!, {
      'AwsSolutions-IAM5[Resource::*]':
        'ses:GetAccount reads the account’s own sending quota and supports no resource-level permission (SES v2 service authorization reference); it grants no sending.',
    });
    bind.io(NoticeJobs, 'SEND');
    // The ISEE jobs ask INPS through PDND, record the ISEE (its documents) and send the December reminders (IO and e-mail).
    bind.inps(IseeJobs, 'QUERY');
    bind.documents(IseeJobs, 'RW');
    bind.io(IseeJobs, 'SEND');
    bind.mail(IseeJobs, 'SEND');
    // The portal's address: the link in the ISEE reminders (sent by the expiry job only).
    IseeJobs.addEnvironment('PORTAL_URL', props.portalUrl);
    this.backgroundJobs.scheduledJobs.bindSecret('CURSOR_SECRET_ARN', cursorSecret, cursorSecret.secretArn);

    const integrations = Object.fromEntries(
      resources.map((resource) => [
        resource,
        new HttpLambdaIntegration(`${resource}Integration`, this.functions[resource]),
      ]),
    ) as Record<Resource, HttpLambdaIntegration>;

    for (const route of routes) {
      const isPublic = route.access === 'public';
      const httpRoute = new apigwv2.HttpRoute(this, route.operationId, {
        httpApi: props.httpApi,
        routeKey: apigwv2.HttpRouteKey.with(route.path, apigwv2.HttpMethod[route.method]),
        integration: integrations[route.resource],
        authorizer: isPublic ? undefined : props.authorizer,
      });
      if (isPublic) {
        acknowledge(httpRoute, {
          'AwsSolutions-APIG4': `${route.method} ${route.path} is public in the route table (${route.operationId}: ${route.summary}); every other route goes through the JWT authorizer.`,
        });
      }
    }
  }
}
