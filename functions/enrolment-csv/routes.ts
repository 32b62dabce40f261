import { idParamsSchema } from '../domain/validation.ts';
import { MAX_IMPORT_BODY_BYTES, csvFileSchema, importEnrolmentsSchema, importPreviewSchema } from '../domain/enrolment.ts';
import { OPERATOR, type RouteDef } from '../http/route.ts';

/**
 * The enrolment CSV (issue 7, design §4): export, template and import. A function of its own: the CSV
 * parser and the ISEE recording it needs stay out of the enrolled-users table's function.
 */
export const enrolmentCsvRoutes = [
  { operationId: 'exportEnrolments', method: 'GET', path: '/api/calls/{id}/enrolments/csv', resource: 'enrolment-csv', access: ['OPERATOR', 'DELEGATE'], summary: 'Elenco degli iscritti in CSV (Excel italiano), col nome del bando', params: idParamsSchema, status: 200, response: csvFileSchema },
  { operationId: 'enrolmentTemplate', method: 'GET', path: '/api/enrolments/template', resource: 'enrolment-csv', access: OPERATOR, summary: 'Template CSV per l’importazione delle iscrizioni (Template_<data>.csv)', status: 200, response: csvFileSchema },
  { operationId: 'importEnrolments', method: 'POST', path: '/api/calls/{id}/enrolments/import', resource: 'enrolment-csv', access: OPERATOR, summary: 'Importazione CSV delle iscrizioni: anteprima (apply false) o applicazione', params: idParamsSchema, body: importEnrolmentsSchema, maxBodyBytes: MAX_IMPORT_BODY_BYTES + 4096, status: 200, response: importPreviewSchema },
] as const satisfies readonly RouteDef<'enrolment-csv'>[];
