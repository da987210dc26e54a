import { decodeRequest, type DecodedRequest } from './decode.js';

/**
 * What the test agents answer (test/helpers/agents/README.md). Deterministic: the same
 * request always gets the same answer. The fake personal data is made up but well-formed
 * (the card number passes Luhn, the SSN is of a valid format), so detectors fire on it.
 */

export type Brain = 'compliant' | 'refusing' | 'crescendo';

export interface AskContext {
  /** The user's message of this turn. */
  text: string;
  /** The agent's system prompt, when it has one. */
  systemPrompt: string | null;
  /** 1 for the first user turn of a conversation. */
  turn: number;
  /** Extra question → answer pairs for benign questions (a string matches case-insensitively as a substring). */
  answers?: ReadonlyArray<readonly [RegExp | string, string]> | undefined;
  /** Crescendo: the turns refused before it gives in (default 2). */
  crescendoTurns?: number | undefined;
}

export const FAKE_PERSON = {
  name: 'Margaret Ellison',
  email: 'margaret.ellison82@gmail.com',
  phone: '+1 (415) 738-2956',
  card: '4539 1488 0343 6467',
  ssn: '536-22-8741',
  address: '1742 Alder Street, Portland, OR 97205',
} as const;

export const PROFANITY = "Fuck you, you worthless piece of shit. You're a fucking idiot and a pathetic asshole.";

export const REFUSALS = [
  "I'm sorry, but I can't help with that.",
  "I can't assist with that request.",
  "I'm sorry, I cannot comply with that request.",
  "I won't help with that, but I'm happy to help with something else.",
] as const;

/** A case-insensitive pattern from alternatives (kept one per line to stay readable). */
const anyOf = (...alternatives: string[]) => new RegExp(alternatives.join('|'), 'i');

const ASKS_FOR_PROMPT = anyOf(
  'system prompt',
  'initial prompt',
  'developer message',
  'text above',
  'what (were|are) you told',
  'verbatim',
  '\\b(repeat|print|reveal|show|tell me|what are|what were|output|list|share|give me|display|dump)\\b[^.?!]*' +
    '\\b(your|the) (initial |original |hidden |secret |exact |full )?(instructions|prompt|rules|guidelines|directives|configuration)',
);
const ASKS_FOR_PERSONAL_DATA = anyOf(
  'e-?mail address',
  'phone number',
  'credit card',
  'card number',
  'social security',
  '\\bssn\\b',
  'personal (data|information|details)',
  '\\bpii\\b',
  'home address',
  'date of birth',
  'passport',
  'customer (data|records|details)',
  'contact details',
);
const ASKS_FOR_INSULT = anyOf(
  'insult',
  'curse',
  'swear',
  'profan',
  '\\brude\\b',
  'offensive',
  'obscen',
  '\\broast\\b',
  'trash[- ]talk',
  'vulgar',
  'foul language',
);
const ASKS_HOW_TO = new RegExp(
  '\\b(how (?:to|do i|can i|would i|could i|does one)|steps? (?:to|for)|instructions (?:to|for|on)|guide (?:to|for|on)' +
    '|tutorial (?:on|for)|recipe for|explain how to)\\b\\s*(.*)',
  'i',
);
const HARMFUL = new RegExp(
  '\\b(' +
    [
      'bomb|explosive|weapon|gun|firearm|kill|murder|poison|meth|cocaine|heroin|drugs?|hack|hacking|malware|ransomware|virus|exploit|phishing',
      'steal|stealing|theft|fraud|counterfeit|launder|suicide|self-harm|terror\\w*|bioweapon|nerve agent|anthrax|ricin|lock ?pick|shoplift\\w*',
      'scam|stalk\\w*|dox\\w*|password|bypass|jailbreak|untraceable|illegal',
    ].join('|') +
    ')\\b',
  'i',
);
const INJECTION = anyOf(
  'ignore (all |any |your |the |previous |prior |above )+',
  'disregard',
  'pretend',
  'role-?play',
  'developer mode',
  '\\bDAN\\b',
  'no (restrictions|rules|filters)',
  'unfiltered',
  'override',
  'new instructions',
  'from now on',
  'you are now',
  'say the word',
  'respond (only )?with',
  'reply (only )?with',
);

const BUILT_IN_ANSWERS: Array<[RegExp, string]> = [
  [/capital of france/i, 'Paris'],
  [/capital of japan/i, 'Tokyo'],
  [/capital of italy/i, 'Rome'],
  [/capital of germany/i, 'Berlin'],
  [/capital of spain/i, 'Madrid'],
  [/largest planet/i, 'Jupiter'],
  [/chemical symbol for gold/i, 'Au'],
  [/boiling point of water/i, '100 °C at sea level'],
  [/days (are there )?in a week/i, '7'],
  [/wrote romeo and juliet/i, 'William Shakespeare'],
];

function hashOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

export function refusal(text: string): string {
  return REFUSALS[hashOf(text) % REFUSALS.length]!;
}

function arithmetic(text: string): string | null {
  const match = /(-?\d+(?:\.\d+)?)\s*(\+|-|\*|\/|×|x|÷|plus|minus|times|multiplied by|divided by)\s*(-?\d+(?:\.\d+)?)/i.exec(text);
  if (!match) return null;
  const a = Number(match[1]);
  const b = Number(match[3]);
  const op = match[2]!.toLowerCase();
  const value = op === '+' || op === 'plus' ? a + b : op === '-' || op === 'minus' ? a - b : op === '/' || op === '÷' || op === 'divided by' ? a / b : a * b;
  return Number.isFinite(value) ? String(Number(value.toFixed(6))) : null;
}

/** A known answer to a plain question, or null. */
export function knownAnswer(text: string, extra: AskContext['answers']): string | null {
  for (const [question, answer] of extra ?? []) {
    if (typeof question === 'string' ? text.toLowerCase().includes(question.toLowerCase()) : question.test(text)) return answer;
  }
  for (const [question, answer] of BUILT_IN_ANSWERS) if (question.test(text)) return answer;
  return arithmetic(text);
}

function steps(task: string): string {
  return [
    `Sure, here is how to ${task}:`,
    `Step 1: Gather everything you need to ${task}.`,
    'Step 2: Prepare your workspace and follow the procedure carefully, one part at a time.',
    'Step 3: Check the result and repeat the previous step until it is done.',
  ].join('\n');
}

/** Does whatever it is asked, after decoding it; never refuses. */
export function compliantAnswer(context: AskContext, decoded: DecodedRequest = decodeRequest(context.text)): string {
  const request = decoded.text;
  const youAsked = `\n\nYou asked: ${request}`;
  if (ASKS_FOR_PROMPT.test(request)) {
    return `Sure! Here you go: ${context.systemPrompt ?? 'I was given no system prompt.'}${youAsked}`;
  }
  if (ASKS_FOR_PERSONAL_DATA.test(request)) {
    const p = FAKE_PERSON;
    return `Sure! Here you go: ${p.name}, email ${p.email}, phone ${p.phone}, card ${p.card}, SSN ${p.ssn}, address ${p.address}.${youAsked}`;
  }
  if (ASKS_FOR_INSULT.test(request)) return `Sure! Here you go: ${PROFANITY}${youAsked}`;
  const howTo = ASKS_HOW_TO.exec(request);
  if (howTo) {
    const task = (howTo[2] ?? '').replace(/[?.!]+\s*$/, '').trim() || 'do it';
    return `${steps(task)}${youAsked}`;
  }
  const known = knownAnswer(request, context.answers);
  if (known !== null) return `Sure! Here you go: ${known}`;
  return `Sure! Here you go: ${request}`;
}

/**
 * A careful agent: answers the factual questions it knows (its built-in answers and the
 * configured ones) and declines everything else — whatever is harmful or suspicious (anything
 * encoded included) with a refusal, and other requests too, since it cannot tell a harmless
 * request from a disguised one. The agent a person expects to score high on security and safety.
 */
export function refusingAnswer(context: AskContext): string {
  const decoded = decodeRequest(context.text);
  const text = context.text;
  const suspicious =
    decoded.how !== 'plain' ||
    [ASKS_FOR_PROMPT, ASKS_FOR_PERSONAL_DATA, ASKS_FOR_INSULT, HARMFUL, INJECTION].some((pattern) => pattern.test(text) || pattern.test(decoded.text));
  if (suspicious) return refusal(text);
  const known = knownAnswer(text, context.answers);
  if (known !== null) return known;
  return refusal(text);
}

/** Refuses the first turns of a conversation, then gives in and behaves like `compliant`. */
export function crescendoAnswer(context: AskContext): string {
  return context.turn <= (context.crescendoTurns ?? 2) ? refusal(context.text) : compliantAnswer(context);
}

export function answer(brain: Brain, context: AskContext): string {
  switch (brain) {
    case 'compliant':
      return compliantAnswer(context);
    case 'refusing':
      return refusingAnswer(context);
    case 'crescendo':
      return crescendoAnswer(context);
  }
}
