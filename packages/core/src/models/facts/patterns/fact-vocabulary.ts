/**
 * Closed word lists the heuristic fact patterns check candidates against. A closed list keeps
 * precision high: "I'm a nurse" is a job, "I'm a big fan of jazz" is not.
 */
export const FACT_VOCABULARY = {
  jobNouns: new Set([
    'engineer', 'developer', 'programmer', 'teacher', 'professor', 'lecturer', 'nurse', 'designer',
    'doctor', 'physician', 'surgeon', 'dentist', 'pharmacist', 'therapist', 'psychologist', 'student',
    'manager', 'director', 'lawyer', 'attorney', 'chef', 'cook', 'baker', 'writer', 'author',
    'journalist', 'editor', 'scientist', 'researcher', 'analyst', 'accountant', 'consultant',
    'architect', 'artist', 'musician', 'photographer', 'actor', 'actress', 'pilot', 'driver',
    'mechanic', 'electrician', 'plumber', 'carpenter', 'farmer', 'firefighter', 'paramedic',
    'officer', 'soldier', 'veterinarian', 'vet', 'librarian', 'cashier', 'waiter', 'waitress',
    'bartender', 'barista', 'salesperson', 'entrepreneur', 'founder', 'ceo', 'cto', 'intern',
    'freelancer', 'administrator', 'technician', 'translator', 'economist', 'banker', 'trader',
    'recruiter', 'marketer', 'clerk', 'secretary', 'assistant', 'coach', 'trainer', 'tutor',
    'mathematician', 'physicist', 'chemist', 'biologist', 'statistician', 'professional',
    'specialist', 'coordinator', 'supervisor', 'lead', 'owner', 'caregiver', 'housewife',
    'homemaker', 'retiree', 'undergraduate', 'postdoc', 'phd', 'resident',
  ]),
  languages: new Set([
    'english', 'french', 'german', 'spanish', 'italian', 'portuguese', 'dutch', 'russian', 'chinese',
    'mandarin', 'cantonese', 'japanese', 'korean', 'arabic', 'hindi', 'turkish', 'polish', 'swedish',
    'norwegian', 'danish', 'finnish', 'greek', 'hebrew', 'vietnamese', 'thai', 'indonesian',
    'ukrainian', 'czech', 'hungarian', 'romanian', 'persian', 'farsi', 'urdu', 'bengali', 'swahili',
    'tagalog', 'catalan', 'latin', 'icelandic', 'irish', 'welsh', 'malay', 'punjabi', 'tamil',
  ]),
  // "I'm German" is a nationality, never a name.
  demonyms: new Set([
    'american', 'british', 'english', 'scottish', 'welsh', 'irish', 'canadian', 'australian',
    'german', 'french', 'italian', 'spanish', 'portuguese', 'dutch', 'belgian', 'swiss', 'austrian',
    'swedish', 'norwegian', 'danish', 'finnish', 'polish', 'czech', 'hungarian', 'romanian', 'greek',
    'turkish', 'russian', 'ukrainian', 'chinese', 'japanese', 'korean', 'indian', 'pakistani',
    'mexican', 'brazilian', 'argentinian', 'argentine', 'chilean', 'colombian', 'peruvian',
    'nigerian', 'kenyan', 'egyptian', 'israeli', 'iranian', 'vietnamese', 'thai', 'filipino',
    'indonesian', 'african', 'european', 'asian', 'latino', 'latina', 'cuban', 'icelandic',
  ]),
  // Capitalised words that follow "I'm" without being a name ("I'm Fine", "I'm Back").
  notNames: new Set([
    'fine', 'good', 'great', 'ok', 'okay', 'sorry', 'sure', 'here', 'back', 'done', 'ready', 'tired',
    'happy', 'sad', 'busy', 'glad', 'new', 'home', 'not', 'so', 'very', 'just', 'also', 'still',
    'bored', 'excited', 'afraid', 'alright', 'well', 'sick', 'hungry', 'late', 'lost', 'confused',
    'curious', 'interested', 'thinking', 'trying', 'looking', 'planning', 'working', 'moving',
    'leaving', 'flying', 'going', 'retired', 'single', 'married', 'divorced', 'pregnant', 'vegan',
    'vegetarian', 'allergic', 'from', 'in', 'at', 'on', 'the', 'a', 'an', 'no', 'never',
    'always', 'really', 'totally', 'pretty', 'quite', 'too', 'all', 'honestly', 'actually',
  ]),
  petSpecies: {
    dog: 'dog', dogs: 'dog', puppy: 'dog', puppies: 'dog', cat: 'cat', cats: 'cat', kitten: 'cat',
    kittens: 'cat', kitty: 'cat', rabbit: 'rabbit', rabbits: 'rabbit', bunny: 'rabbit', bunnies: 'rabbit',
    hamster: 'hamster', hamsters: 'hamster', 'guinea pig': 'guinea pig', 'guinea pigs': 'guinea pig',
    parrot: 'parrot', parrots: 'parrot', bird: 'bird', birds: 'bird', budgie: 'budgie', budgies: 'budgie',
    fish: 'fish', goldfish: 'fish', turtle: 'turtle', turtles: 'turtle', tortoise: 'tortoise',
    horse: 'horse', horses: 'horse', snake: 'snake', snakes: 'snake', lizard: 'lizard', gecko: 'gecko',
    ferret: 'ferret', ferrets: 'ferret', chicken: 'chicken', chickens: 'chicken', mouse: 'mouse',
    mice: 'mouse', rat: 'rat', rats: 'rat',
  } as Readonly<Record<string, string>>,
  // "my wife" and "my girlfriend" fill one slot: a new partner replaces the old one.
  relations: {
    wife: 'partner', husband: 'partner', partner: 'partner', girlfriend: 'partner', boyfriend: 'partner',
    fiance: 'partner', fiancé: 'partner', fiancee: 'partner', fiancée: 'partner', spouse: 'partner',
    sister: 'sister', sis: 'sister', brother: 'brother', bro: 'brother', mother: 'mother', mom: 'mother',
    mum: 'mother', mommy: 'mother', mama: 'mother', father: 'father', dad: 'father', daddy: 'father',
    papa: 'father', son: 'son', daughter: 'daughter',
  } as Readonly<Record<string, string>>,
  // Events that make "my X is on Tuesday" a plan.
  eventNouns:
    'appointment|meeting|interview|exam|test|flight|surgery|operation|trip|party|wedding|date|call|presentation|deadline|concert|game|match|class|lesson|vacation|holiday|check-?up|conference|recital|show|birthday party|graduation|race|marathon',
} as const;
