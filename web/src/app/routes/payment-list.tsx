import { getCalls } from '@/features/calls/api/get-calls';
import { PaymentListPage } from '@/features/payments';

/** /lista_pagamenti?id={callId}: the payments feature's list, whose call select offers the calls. */
export const PaymentListRoute = () => <PaymentListPage listCalls={(cursor) => getCalls('', cursor)} />;
