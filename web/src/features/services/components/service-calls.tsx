import { ServiceCallsList } from '@/features/calls/components/service-calls-list';

export interface ServiceCallsProps {
  serviceId: string;
  serviceName: string;
}

/** The calls (bandi) of a service, under its detail page, and the button to a new call for it. */
export function ServiceCalls({ serviceId, serviceName }: ServiceCallsProps) {
  return <ServiceCallsList serviceId={serviceId} serviceName={serviceName} />;
}
