import type { Service } from '@domain/services';
import { Heading, Text } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';

/** Services as cards (name, description and the card's button), on the landing page and the citizen's home. */
export function ServiceCards({ services, action }: { services: Service[]; action: (service: Service) => ReactNode }) {
  return (
    <ul className="service-list">
      {services.map((service) => (
        <li key={service.id} className="service-card">
          <Heading level={3} className="service-card__title">
            {service.name}
          </Heading>
          <Text className="service-card__text">{service.description}</Text>
          {action(service)}
        </li>
      ))}
    </ul>
  );
}
