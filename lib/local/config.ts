import path from 'node:path';

/**
 * Where the local stack listens and keeps its data. Every value can be changed by an environment
 * variable, so tests can run a second stack beside a developer's.
 */
export interface LocalConfig {
  /** Web app and API on one address. */
  port: number;
  idpPort: number;
  dynamoPort: number;
  s3Port: number;
  /** The MyPay simulator (lib/local/mypay-simulator.ts). */
  myPayPort: number;
  /** Step Functions (StartExecution, DescribeExecution) running the export's definition. */
  stepFunctionsPort: number;
  /** aws-ses-v2-local: SES v2 API and the inbox page. */
  sesPort: number;
  /** The IO app simulator (lib/local/io-simulator.ts). */
  ioPort: number;
  /** PDND's authorization server (lib/local/pdnd-simulator.ts). */
  pdndPort: number;
  /** INPS's ConsultazioneISEE e-service (lib/local/inps-simulator.ts). */
  inpsPort: number;
  /**
   * pagoPA's GPD, Checkout and receipts (lib/local/gpd-simulator.ts). Unset (a test's stack): started, on a free
   * port, only when PAYMENT_PLATFORM=gpd.
   */
  gpdPort?: number;
  dataDir: string;
  host: string;
}

export function localConfig(env: NodeJS.ProcessEnv = process.env): LocalConfig {
  const port = Number(env.PORT ?? 3000);
  return {
    port,
    idpPort: Number(env.IDP_PORT ?? port + 100),
    dynamoPort: Number(env.DYNAMO_PORT ?? port + 1567),
    s3Port: Number(env.S3_PORT ?? port + 1568),
    myPayPort: Number(env.MYPAY_PORT ?? port + 1569),
    stepFunctionsPort: Number(env.SFN_PORT ?? port + 1570),
    sesPort: Number(env.SES_PORT ?? port + 1571),
    ioPort: Number(env.IO_PORT ?? port + 1572),
    pdndPort: Number(env.PDND_PORT ?? port + 1573),
    inpsPort: Number(env.INPS_PORT ?? port + 1574),
    gpdPort: Number(env.GPD_PORT ?? port + 1575),
    dataDir: path.resolve(env.DATA_DIR ?? '.data'),
    host: env.HOST ?? 'localhost',
  };
}

export const appUrl = (c: LocalConfig) => `http://${c.host}:${c.port}`;
export const issuerUrl = (c: LocalConfig) => `http://${c.host}:${c.idpPort}`;

/** The web app's OIDC client and the API audience the local provider puts in access tokens. */
export const OIDC_CLIENT_ID = 'portale-web';
export const API_AUDIENCE = 'urn:portale-servizi-sociali:api';
export const TABLE_NAME = 'portale';
export const REGION = 'eu-south-1';
/** Access tokens live as long as the spec's session: 9 hours. */
export const ACCESS_TOKEN_TTL_SECONDS = 9 * 60 * 60;
