/**
 * The single DynamoDB table and its keys, shared by the CDK stack, the local runtime and the repositories.
 *
 * Key design (every list is a Query, never a Scan):
 * - an entity lives at  pk = "<TYPE>#<id>", sk = "<TYPE>"            → GetItem by id
 * - gsi1 lists a collection in display order: gsi1pk = "<COLLECTION>", gsi1sk = sort key
 *     bands by min value ("BANDS"), services by name ("SERVICES"), audit entries by day ("AUDIT#<yyyy-mm-dd>")
 * - gsi2 answers "who points at me": gsi2pk = "<PARENT>#<id>#<CHILDREN>", gsi2sk = child key
 *     e.g. the calls of a service ("SERVICE#<id>#CALLS"), the calls using a band ("BAND#<id>#CALLS")
 */
export const table = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
} as const;

export const keys = {
  band: (id: string) => ({ pk: `BAND#${id}`, sk: 'BAND' }),
  bandsCollection: 'BANDS',
  callsUsingBand: (bandId: string) => `BAND#${bandId}#CALLS`,
  service: (id: string) => ({ pk: `SERVICE#${id}`, sk: 'SERVICE' }),
  servicesCollection: 'SERVICES',
  callsOfService: (serviceId: string) => `SERVICE#${serviceId}#CALLS`,
  user: (id: string) => ({ pk: `USER#${id}`, sk: 'USER' }),
  userByFiscalCode: (fiscalCode: string) => ({ pk: `USERCF#${fiscalCode.toUpperCase()}`, sk: 'USERCF' }),
  isee: (id: string) => ({ pk: `ISEE#${id}`, sk: 'ISEE' }),
  auditOf: (entity: string, id: string) => `AUDIT#${entity}#${id}`,
  auditDay: (isoDate: string) => `AUDIT#${isoDate.slice(0, 10)}`,
};

/** Sort keys that order numbers as text: 12 digits cover up to 9.999.999.999,99 € in cents. */
export const numericSortKey = (cents: number) => String(cents).padStart(12, '0');
