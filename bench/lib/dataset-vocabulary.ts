/**
 * Words of the planted facts of the retrieval-quality data set. Cities and people also occur
 * in the distractor chatter (conversation-vocabulary.ts), so a name alone does not find the
 * evidence.
 */

export const PET_NAMES: readonly string[] = ['Pepper', 'Biscuit', 'Nori', 'Waffles', 'Juniper', 'Pixel', 'Mango', 'Clover', 'Ziggy', 'Tofu'];

export const PEOPLE: readonly string[] = ['Alice', 'Bruno', 'Chen', 'Dana', 'Emeka', 'Fatima', 'Giulia', 'Hiro', 'Ines', 'Jonas', 'Kofi', 'Lena', 'Mateo', 'Nadia', 'Oskar', 'Priya'];

export const RELATIONS: readonly string[] = ['sister', 'brother', 'cousin', 'best friend', 'neighbour', 'manager', 'landlord', 'mentor'];

export const CITIES: readonly string[] = [
  'Berlin',
  'Lisbon',
  'Osaka',
  'Nairobi',
  'Toronto',
  'Reykjavik',
  'Marseille',
  'Hanoi',
  'Krakow',
  'Austin',
  'Melbourne',
  'Edinburgh',
  'Bologna',
  'Seoul',
  'Cape Town',
];

export const JOBS: readonly string[] = [
  'a nurse',
  'a data engineer',
  'a high-school teacher',
  'an architect',
  'a chef',
  'a product manager',
  'a freelance translator',
  'a physiotherapist',
  'a lawyer',
];

export const COMPANIES: readonly string[] = ['Acme', 'Northwind', 'Globex', 'Initech', 'Umbrella Labs', 'Blue Harbor', 'Vandelay Imports', 'Stark Logistics'];

export const OUTINGS: readonly string[] = ['hiking', 'kayaking', 'birdwatching', 'cycling', 'climbing'];

export const EVENTS: readonly string[] = ['dentist appointment', 'driving test', 'job interview', 'piano recital', 'visa interview', 'marathon'];
