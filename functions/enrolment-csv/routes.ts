import { idParamsSchema } from '../domain/validation.ts';
import {
  MAX_IMPORT_BODY_BYTES,
  applyImportSchema,
  enrolmentMessages,
  csvFileSchema,
  importEnrolmentsSchema,
  importPreviewSchema,
  importStatusSchema,
} from '../domain/enrolment.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/**
 * The enrolment CSV (issue 7, design §4): export, template and import. A function of its own: the CSV
 * parser and the ISEE recording it needs stay out of the enrolled-users table's function.
 */
export const enrolmentCsvRoutes = [
  {
    operationId: 'exportEnrolments',
    method: 'GET',
    path: '/api/calls/{id}/enrolments/csv',
    resource: 'enrolment-csv',
    access: OPERATOR,
    summary: 'Elenco degli iscritti in CSV (Excel italiano), col nome del bando',
    params: idParamsSchema,
    status: 200,
    response: csvFileSchema,
  },
  {
    operationId: 'enrolmentTemplate',
    method: 'GET',
    path: '/api/enrolments/template',
    resource: 'enrolment-csv',
    access: OPERATOR,
    summary: 'Template CSV per l’importazione delle iscrizioni (Template_<data>.csv)',
    status: 200,
    response: csvFileSchema,
  },
  {
    operationId: 'importEnrolments',
    method: 'POST',
    path: '/api/calls/{id}/enrolments/import',
    resource: 'enrolment-csv',
    access: OPERATOR,
    summary: 'Importazione CSV delle iscrizioni: anteprima (nulla è salvato; l’anteprima resta per «Applica»)',
    params: idParamsSchema,
    body: importEnrolmentsSchema,
    maxBodyBytes: MAX_IMPORT_BODY_BYTES + 4096,
    tooLargeMessage: enrolmentMessages.fileTooLarge,
    status: 200,
    response: importPreviewSchema,
  },
  {
    operationId: 'applyEnrolmentImport',
    method: 'POST',
    path: '/api/calls/{id}/enrolments/import/apply',
    resource: 'enrolment-csv',
    access: OPERATOR,
    summary: 'Applica: l’anteprima approvata applicata in background',
    params: idParamsSchema,
    body: applyImportSchema,
    status: 200,
    response: importStatusSchema,
    problems: [409],
  },
  {
    operationId: 'enrolmentImportStatus',
    method: 'GET',
    path: '/api/calls/{id}/enrolments/import',
    resource: 'enrolment-csv',
    access: OPERATOR,
    summary: 'Stato dell’importazione (righe applicate su totale)',
    params: idParamsSchema,
    status: 200,
    response: importStatusSchema,
  },
] as const satisfies readonly RouteDef<'enrolment-csv'>[];
