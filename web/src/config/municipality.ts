/**
 * The council that runs the portal. A fictional council: every value a deployment must change is here,
 * and the shell (header, footer, privacy contacts) reads only from this module.
 */
export const municipality = {
  /** Shown in the header and in the page titles. */
  name: 'Comune di Valleverde',
  /** The office that runs the portal. */
  office: 'Settore Politiche Sociali',
  portalName: 'Servizi sociali',
  address: {
    street: 'Piazza del Municipio, 1',
    postalCode: '00199',
    city: 'Valleverde',
    province: 'VV',
  },
  /** Opening hours of the phone support, as shown in the footer. */
  phoneSupport: {
    number: '+39 0123 456789',
    /** For the tel: link. */
    dial: '+390123456789',
    hours: ['dal lunedì al venerdì, dalle 9:00 alle 12:30', 'martedì e giovedì anche dalle 14:30 alle 16:30'],
  },
  email: 'servizisociali@comune.valleverde.example.it',
  pec: 'protocollo@pec.comune.valleverde.example.it',
  fiscalCode: '80012340123',
  /** Data controller and data-protection officer, quoted by the privacy notice. */
  privacy: {
    controller: 'Comune di Valleverde, in persona del Sindaco pro tempore',
    dpoEmail: 'rpd@comune.valleverde.example.it',
  },
  website: 'https://www.comune.valleverde.example.it',
} as const;

export const fullAddress = () => {
  const { street, postalCode, city, province } = municipality.address;
  return `${street} – ${postalCode} ${city} (${province})`;
};
