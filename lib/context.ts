import type { Node } from 'constructs';
import { DEFAULT_TEXTRACT_REGION, TEXTRACT_REGIONS } from './textract-regions.ts';

/**
 * Everything a deployment can be told through CDK context (`cdk deploy -c key=value` or the
 * `context` section of cdk.json). Every value has a default so that `cdk synth` works with none;
 * the defaults are placeholders for the SPID/CIE gateway and must be replaced before a real deploy.
 */
export interface PortalContext {
  /** Region of every stack: Milan unless told otherwise. */
  region: string;
  /**
   * Region of the Textract endpoint that reads photographed attestations (Milan has none): pages are sent
   * to it in the request and nothing is stored there. Must be one of TEXTRACT_REGIONS.
   */
  textractRegion: string;
  /** Prefix of the stack names (a second copy in one account needs another one). */
  stackPrefix: string;
  /** Folder of the built web app, relative to the repository (default web/dist). */
  webAssetPath?: string;
  spidGateway: {
    /**
     * The gateway's identity provider name in the user pool: sent as identity_provider on the authorize
     * request, so citizens go straight to the SPID/CIE gateway instead of Cognito's own page.
     */
    providerName: string;
    /** OIDC issuer of the municipality's SPID/CIE gateway (Cognito reads its discovery document at deploy). */
    issuer: string;
    clientId: string;
    /** Name of the Secrets Manager secret (plain string) holding the gateway client secret. */
    clientSecretName: string;
    /** The gateway's claim that carries the fiscal code ('TINIT-<code>' with SPID). */
    fiscalCodeClaim: string;
    scopes: string[];
  };
  /** Prefix of the Cognito domain `<prefix>.auth.<region>.amazoncognito.com`; unset: derived from the stack id. */
  authDomainPrefix?: string;
  /** Custom domain of the web app (e.g. servizisociali.comune.example.it); unset: CloudFront's own domain. */
  webDomainName?: string;
  /** ACM certificate for webDomainName, in us-east-1 (required by CloudFront). */
  certificateArn?: string;
  /** An existing WAF web ACL (CLOUDFRONT scope, us-east-1) for the distribution. */
  webAclArn?: string;
  /** Name of the Secrets Manager secret (JSON: endpoint, codIpa, password) with the council's MyPay access. */
  mypaySecretName: string;
  /**
   * The IO app: base URL of its API, the Secrets Manager secret (plain string) holding the service's
   * subscription key (Ocp-Apim-Subscription-Key), and the council's fiscal code, the payee of every payment.
   */
  io: { baseUrl: string; secretName: string; payeeFiscalCode: string };
  mail: {
    /** Sender of every e-mail (a verified SES identity, or an address of a verified domain). */
    from: string;
    /** The council's support office, which receives the support form's messages. */
    supportAddress: string;
    /** The SES identity the functions may send from; unset: the sender's domain in the stack's account and region. */
    identityArn?: string;
  };
}

export const contextDefaults = {
  region: 'eu-south-1',
  textractRegion: DEFAULT_TEXTRACT_REGION,
  stackPrefix: 'Portale',
  spidGatewayProviderName: 'SpidCie',
  spidGatewayIssuer: 'https://spid-gateway.example.org',
  spidGatewayClientId: 'portale-servizi-sociali',
  spidGatewayClientSecretName: 'portale-servizi-sociali/spid-gateway-client-secret',
  spidGatewayFiscalCodeClaim: 'fiscalNumber',
  spidGatewayScopes: 'openid profile email',
  mypaySecretName: 'portale-servizi-sociali/mypay',
  ioBaseUrl: 'https://api.io.pagopa.it',
  ioSecretName: 'portale-servizi-sociali/io-api-key',
  /** A placeholder: the council's own fiscal code (11 digits) must be given before a real deploy. */
  ioPayeeFiscalCode: '00000000000',
  mailFrom: 'noreply@comune.example.it',
  supportEmail: 'supporto@comune.example.it',
} as const;

const text = (node: Node, key: string): string | undefined => {
  const value = node.tryGetContext(key);
  return value === undefined || value === null || String(value).trim() === '' ? undefined : String(value).trim();
};

export function portalContext(node: Node): PortalContext {
  const webDomainName = text(node, 'webDomainName');
  const certificateArn = text(node, 'certificateArn');
  if (webDomainName && !certificateArn) {
    throw new Error('webDomainName needs certificateArn (an ACM certificate in us-east-1 for CloudFront)');
  }
  if (certificateArn && !webDomainName) throw new Error('certificateArn is only used with webDomainName');
  const payee = text(node, 'ioPayeeFiscalCode');
  if (payee && !/^[0-9]{11}$/.test(payee)) throw new Error('ioPayeeFiscalCode must be the council’s fiscal code: 11 digits');
  const textractRegion = text(node, 'textractRegion') ?? contextDefaults.textractRegion;
  if (!(TEXTRACT_REGIONS as readonly string[]).includes(textractRegion)) {
    throw new Error(`textractRegion ${textractRegion} has no Amazon Textract endpoint: choose one of ${TEXTRACT_REGIONS.join(', ')} (an EU one: eu-central-1, eu-west-1, eu-west-3, eu-south-2)`);
  }
  const providerName = text(node, 'spidGatewayProviderName') ?? contextDefaults.spidGatewayProviderName;
  // Cognito's identity provider names: up to 32 characters, no blanks (CreateIdentityProvider, ProviderName).
  if (!/^[^_\s]\S{0,31}$/u.test(providerName)) {
    throw new Error(`spidGatewayProviderName ${providerName}: 1 to 32 characters, no spaces, not starting with an underscore`);
  }
  return {
    region: text(node, 'region') ?? contextDefaults.region,
    textractRegion,
    stackPrefix: text(node, 'stackPrefix') ?? contextDefaults.stackPrefix,
    webAssetPath: text(node, 'webAssetPath'),
    spidGateway: {
      providerName,
      issuer: text(node, 'spidGatewayIssuer') ?? contextDefaults.spidGatewayIssuer,
      clientId: text(node, 'spidGatewayClientId') ?? contextDefaults.spidGatewayClientId,
      clientSecretName: text(node, 'spidGatewayClientSecretName') ?? contextDefaults.spidGatewayClientSecretName,
      fiscalCodeClaim: text(node, 'spidGatewayFiscalCodeClaim') ?? contextDefaults.spidGatewayFiscalCodeClaim,
      scopes: (text(node, 'spidGatewayScopes') ?? contextDefaults.spidGatewayScopes).split(/[\s,]+/).filter(Boolean),
    },
    authDomainPrefix: text(node, 'authDomainPrefix'),
    webDomainName,
    certificateArn,
    webAclArn: text(node, 'webAclArn'),
    mypaySecretName: text(node, 'mypaySecretName') ?? contextDefaults.mypaySecretName,
    io: {
      baseUrl: text(node, 'ioBaseUrl') ?? contextDefaults.ioBaseUrl,
      secretName: text(node, 'ioSecretName') ?? contextDefaults.ioSecretName,
      payeeFiscalCode: text(node, 'ioPayeeFiscalCode') ?? contextDefaults.ioPayeeFiscalCode,
    },
    mail: {
      from: text(node, 'mailFrom') ?? contextDefaults.mailFrom,
      supportAddress: text(node, 'supportEmail') ?? contextDefaults.supportEmail,
      identityArn: text(node, 'mailIdentityArn'),
    },
  };
}
