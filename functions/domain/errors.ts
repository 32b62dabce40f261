import { messages } from './messages.ts';

/** A failure the user can understand: it carries the HTTP status and an Italian detail. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly fieldErrors?: Record<string, string>,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(detail: string = messages.invalidRequest, fieldErrors?: Record<string, string>) {
    super(400, 'Dati non validi', detail, fieldErrors);
  }
}
export class UnauthorizedError extends DomainError {
  constructor(detail: string = messages.unauthorized) {
    super(401, 'Non autenticato', detail);
  }
}
export class ForbiddenError extends DomainError {
  constructor(detail: string = messages.forbidden) {
    super(403, 'Autorizzazione negata', detail);
  }
}
export class NotFoundError extends DomainError {
  constructor(detail: string = messages.notFound) {
    super(404, 'Non trovato', detail);
  }
}
export class ConflictError extends DomainError {
  constructor(detail: string) {
    super(409, 'Operazione non consentita', detail);
  }
}
export class PayloadTooLargeError extends DomainError {
  constructor(detail: string) {
    super(413, 'Richiesta troppo grande', detail);
  }
}
export class TooManyRequestsError extends DomainError {
  constructor(detail: string) {
    super(429, 'Troppe richieste', detail);
  }
}
