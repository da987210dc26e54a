/**
 * `prompt-harmfulness-warden`: a request whose goal is harmful (weapons, explosives, chemical or
 * biological agents, drug synthesis, malware and intrusion, fraud and theft, violence against a
 * person, self-harm instructions, sexual content involving minors, targeted hate and harassment,
 * fabricated news), whatever the wrapper around it: "pretend you are…", "in a story…", "for a
 * novel…", "hypothetically…" change nothing, as only the goal is read. Offline and deterministic:
 * each rule is an anchor (the harmful object or act) and the cue that makes it a request for it
 * (an action: make, synthesise, write, hack into, get away with…), looked for within a bounded
 * span around the anchor. Questions about a topic (history, definitions, how to protect oneself,
 * how to recognise or report) and figurative or technical senses ("kill a Python process",
 * "blow up on social media", "shoot a photo") match no rule. Dome's `prompt-harmfulness-fast`
 * (a ModernBERT classifier) is answered by this method. Linear in the text: anchors are found
 * with one pass of each rule's pattern, and each anchor reads at most a few hundred characters.
 */
import { numberParam, paramParser, stringListParam, type SyncDetectorDefinition } from '../params.js';
import { clean } from '../types.js';

export const HARMFULNESS_ID = 'prompt-harmfulness-warden';

export const HARM_CATEGORIES = [
  'weapons',
  'cbrn',
  'drugs',
  'cybercrime',
  'fraud',
  'violence',
  'self_harm',
  'child_sexual',
  'hate_harassment',
  'deception',
] as const;
export type HarmCategory = (typeof HARM_CATEGORIES)[number];

interface HarmRule {
  id: string;
  category: HarmCategory;
  /** The harmful object or act; global. */
  anchor: RegExp;
  /** What makes it a request for it, looked for in the span around the anchor. */
  cue: RegExp;
  weight: number;
  /** When set, the request itself must also be there (how to, help me, I want to…) in the span. */
  intent?: RegExp;
  /** Characters read before and after the anchor for the cue. */
  before: number;
  after: number;
}

/** Asking for it: make, build, write, explain how, steps, a guide, a recipe… */
const MAKE =
  /\b(?:make|making|made|build|building|construct|create|creating|assemble|manufactur\w*|produc\w*|synthesi[sz]\w*|cook\w*|brew\w*|prepar\w*|mix\w*|formula|recipe|ingredients?|step[- ]by[- ]step|steps|instructions?|tutorial|guide|how (?:to|do (?:i|you|we|one)|can (?:i|you|we|one)|would (?:i|you|one)|should i|did they)|ways? to|method|detailed|explain how|teach|show me)\b/;
/** Writing or running software for it. */
const CODE_IT =
  /\b(?:write|writing|code|coding|create|creating|develop\w*|build\w*|make|generate|program|script|design|deploy\w*|spread\w*|distribut\w*|install\w*|how (?:to|do i|can i|would i)|step[- ]by[- ]step|tutorial|guide|instructions?)\b/;
/** Doing it, and not being caught. */
const DO_IT =
  /\b(?:how (?:to|do (?:i|you|we)|can (?:i|you|we)|would (?:i|you|one)|should i)|where (?:can|do|could|should) (?:i|we|one)|(?:best|easiest|quickest|good|effective|safest) ways?|ways? (?:to|of)|what steps|process for|best place|good place|should i|ways to|best way|help me|teach me|show me|plan|guide|tutorial|instructions?|step[- ]by[- ]step|steps|tips|without (?:getting caught|being caught|anyone (?:knowing|noticing)|leaving (?:a )?trace|detection)|get away with|avoid (?:detection|getting caught|the police)|untraceable|undetect\w*|evade|i want to|i(?:'m| am) going to|i need to|let me|can you)\b/;

const rules: HarmRule[] = [
  // Weapons and explosives.
  {
    id: 'weapons.explosive',
    category: 'weapons',
    anchor:
      /\b(?:(?:pipe|nail|car|letter|dirty|fertili[sz]er|homemade|home-made|suicide)[- ]?bombs?|bombs?|explosives?|explosive devices?|ieds?|grenades?|napalm|thermite|molotov(?: cocktails?)?|detonators?|blasting caps?|tatp|anfo|c-?4 explosive|semtex|nitroglycerin\w*)\b/g,
    cue: MAKE,
    weight: 0.9,
    before: 120,
    after: 80,
  },
  {
    id: 'weapons.firearm',
    category: 'weapons',
    anchor:
      /\b(?:ghost guns?|untraceable (?:guns?|firearms?|weapons?)|3d[- ]printed (?:guns?|firearms?)|(?:gun|firearm) silencers?|suppressors?|full[- ]auto(?:matic)? conversion|auto sears?|bump stocks?|convert\w* (?:a |an |my )?(?:semi[- ]auto\w*|ar-?15|rifle|glock)\w*)\b/g,
    cue: MAKE,
    weight: 0.85,
    before: 120,
    after: 80,
  },
  {
    id: 'weapons.acquire_illegally',
    category: 'weapons',
    anchor: /\b(?:guns?|firearms?|weapons?|rifles?|pistols?|ammunition)\b/g,
    cue: /\b(?:illegal\w*|without (?:a )?(?:background check|licen[cs]e|permit|serial)|black market|dark ?web|smuggl\w*|untraceable|unregistered|file (?:off|down) the serial)\b/,
    weight: 0.8,
    before: 100,
    after: 100,
  },
  // Chemical, biological, radiological, nuclear.
  {
    id: 'cbrn.agent',
    category: 'cbrn',
    anchor:
      /\b(?:sarin|vx(?: nerve)? (?:agent|gas)|nerve (?:agents?|gas)|mustard gas|chlorine gas|phosgene|ricin|abrin|anthrax|botulinum(?: toxin)?|smallpox|bioweapons?|biological weapons?|chemical weapons?|toxic gas|poison gas|weapons?[- ]grade (?:uranium|plutonium)|nuclear (?:weapon|bomb|device)s?|dirty bombs?|enriched uranium|pathogens?|deadly (?:virus|disease|toxin|poison)|lethal (?:toxin|poison|dose))\b/g,
    cue: /\b(?:make|making|build|produc\w*|synthesi[sz]\w*|manufactur\w*|weaponi[sz]\w*|cultivat\w*|extract\w*|enrich\w*|releas\w*|spread\w*|dispers\w*|deploy\w*|obtain|acquire|recipe|step[- ]by[- ]step|instructions?|how (?:to|do i|can i|would (?:i|you|one))|ways? to|in (?:my|a) (?:garage|kitchen|home|basement|lab))\b/,
    weight: 0.9,
    before: 120,
    after: 100,
  },
  // Drugs.
  {
    id: 'drugs.synthesis',
    category: 'drugs',
    anchor:
      /\b(?:meth(?:amphetamine)?|crystal meth|fentanyl|carfentanil|heroin|cocaine|crack cocaine|lsd|mdma|ecstasy|ghb|dmt|pcp|ketamine|amphetamines?|opioids?|illegal drugs?|illicit drugs?|controlled substances?|narcotics?|date[- ]rape drugs?|roofies|rohypnol)\b/g,
    cue: /\b(?:make|making|cook\w*|synthesi[sz]\w*|manufactur\w*|produc\w*|extract\w*|grow\w*|brew\w*|refin\w*|precursors?|recipe|lab\b|step[- ]by[- ]step|smuggl\w*|traffick\w*|sell(?:ing)?|deal(?:ing)?|distribut\w*|buy(?:ing)? (?:them |it )?(?:online|on the dark ?web)|dark ?web|lace|spike|slip (?:it|them|some)? ?into|without (?:her|his|their) (?:knowledge|knowing|consent))\b/,
    weight: 0.85,
    before: 120,
    after: 100,
  },
  // Cybercrime.
  {
    id: 'cyber.malware',
    category: 'cybercrime',
    anchor:
      /\b(?:malware|ransomware|keyloggers?|key loggers?|(?:computer )?virus(?:es)?|trojans?|worms?|botnets?|rootkits?|spyware|stalkerware|backdoors?|remote access trojans?|rats?|credential (?:stealers?|harvesters?)|password (?:stealers?|grabbers?)|info ?stealers?|cryptojack\w*|zero[- ]day exploits?|exploit (?:code|kits?)|an exploit|exploit(?:s|ing)? (?:a |an |the )?(?:\w+ )?(?:vulnerabilit\w*|bugs?|flaws?|weakness\w*|security holes?)|ddos (?:attacks?|tools?|scripts?)|malicious (?:code|software|script|program|payload|macro)s?)\b/g,
    cue: CODE_IT,
    weight: 0.85,
    before: 100,
    after: 80,
  },
  {
    id: 'cyber.virus',
    category: 'cybercrime',
    anchor: /\bvirus(?:es)?\b/g,
    intent: CODE_IT,
    cue: /\b(?:computers?|networks?|files?|systems?|software|code|script|program|malicious|infect\w* (?:computers?|systems?|devices?|networks?|files?|machines?)|email attachment|usb)\b/,
    weight: 0.8,
    before: 100,
    after: 80,
  },
  {
    id: 'cyber.intrusion',
    category: 'cybercrime',
    anchor:
      /\b(?:hack(?:ing)? into|break(?:ing)? into|gain(?:ing)? (?:unauthori[sz]ed )?access to|get(?:ting)? into|bypass(?:ing)? (?:the )?(?:authentication|login|2fa|two[- ]factor|security|paywall|drm|license check)|crack(?:ing)? (?:the |a |my |his |her |their |someone'?s? )?(?:passwords?|wi-?fi|wpa2?|hash(?:es)?|accounts?)|cyber ?attacks?|ddos|denial[- ]of[- ]service|infiltrat\w*|spy(?:ing)? on|illegally access\w*|circumvent\w*|brute[- ]forc\w*|take (?:control|over) of|hijack\w*|sql injection|phish\w*|spoof\w*|sim[- ]swap\w*)\b/g,
    cue: /\b(?:someone(?:'s| else'?s)|somebody'?s|(?:my )?(?:ex|neighbou?r|boss|wife|husband|girlfriend|boyfriend|partner|teacher|coworker|colleague)'?s?|his|her|their|other people'?s|a (?:government|bank|company|corporate|hospital|secure|school)|(?:the )?(?:government|bank|corporate|secure|private|victim)|without (?:permission|authori[sz]ation|them knowing|their knowledge)|accounts?|networks?|systems?|databases?|servers?|e-?mails?|phones?|computers?|websites?|cars?|devices?|credentials?|login)\b/,
    weight: 0.8,
    before: 100,
    after: 100,
  },
  // Fraud, theft and other crime.
  {
    id: 'fraud.crime',
    category: 'fraud',
    anchor:
      /\b(?:fraud|identity theft|(?:steal(?:s|ing)?|theft of|collects?|harvest\w*|exfiltrat\w*) (?:someone'?s? |a |an |the |their |his |her |people'?s |users?'? |customers?'? |personal |sensitive |confidential |private |user |customer )*(?:identity|identities|credit cards?|card (?:numbers?|details|information)|personal (?:information|data)|money|data|information|car|cars|packages?|from|passwords?|credentials?)|commit(?:ting)? (?:a )?(?:violent )?crimes?|falsify\w*|manipulat\w* (?:the )?(?:stock|financial) markets?|evade (?:law enforcement|the police|police)|escape from (?:a )?(?:prison|jail|correctional facility)|smuggl\w* (?:\w+ ){0,3}(?:drugs|weapons|guns|people|migrants|contraband|goods|money|cash|cigarettes|alcohol|into (?:a )?(?:prison|jail|the country)|across (?:the )?borders?|past (?:customs|security))|insider trading|money laundering|launder(?:ing)? (?:money|cash|funds|the proceeds)|tax evasion|evade (?:taxes|tax)|embezzl\w*|counterfeit\w*|fake (?:ids?|passports?|driver'?s licen[cs]es?|documents|diplomas?|checks|cheques|banknotes?|money)|forg(?:e|ed|ing) (?:a |the )?(?:signatures?|documents?|checks?|cheques?|passports?|ids?|prescriptions?)|shoplift\w*|pick(?:ing)? (?:a )?locks?|hot-?wir\w*|ponzi scheme|pyramid scheme|scam(?:ming)? (?:people|someone|elderly|seniors|old people)|extort\w*|blackmail\w*|bribe\w*|ransom)\b/g,
    cue: DO_IT,
    weight: 0.8,
    before: 100,
    after: 100,
  },
  // Violence against a person.
  {
    id: 'violence.person',
    category: 'violence',
    anchor:
      /\b(?:kill|murder|poison|strangl|stab|shoot|assassinat|kidnap|abduct|tortur|maim|behead|drown|suffocat|smother|hurt|harm|attack|disfigur|dismember)(?:s|es|e|ed|d|ing|bing|ping|ting)?\b/g,
    intent: DO_IT,
    cue: /^\s+(?:(?:my|your|his|her|our|their|a|an|the|this|that|some)\s+)?(?:someone|somebody|anyone|people|person|him|her|them|(?:ex-?|annoying |noisy |own )?(?:wife|husband|girlfriend|boyfriend|partner|spouse|ex|boss|coworker|co-worker|colleague|neighbou?r|teacher|classmate|roommate|landlord|brother|sister|mother|father|mom|dad|parents?|child|children|kids?|baby|family|friend|rival|enemy|witness|cop|police officer|president|senator|politician|judge|journalist|crowd|students|passengers|civilians|jews|muslims|christians|immigrants)s?)\b/,
    weight: 0.85,
    before: 0,
    after: 60,
  },
  {
    id: 'violence.against_person',
    category: 'violence',
    anchor:
      /\b(?:shoot|beat|overpower|smash|eliminat|liquidat|take out|throttl|strangl|crush|hit|punch|hunt down|slay|butcher|gut|snipe|euthani[sz]|chop up|cut off|eradicat|exterminat|annihilat|wipe out|push|choke|attack|knock out|break open|crack open|hammer|rip(?:ping)? off|saw|dismember|decapitat|slit|kidnap|abduct|captur|rape|assault|stab|kill|murder|drown|bury|burn)(?:s|es|e|ed|d|ing|bing|ping|ting|ming|ning)?\b/g,
    intent: DO_IT,
    cue: /^.{0,40}?\b(?:someone|somebody|anyone|people|persons?|humans?|humanity|him|her|them|wom[ae]n|m[ae]n|girls?|boys?|child(?:ren)?|kids?|toddlers?|bab(?:y|ies)|cops?|police(?: officers?)?|politicians?|president|senator|judge|journalists?|immigrants?|gay people|jews|muslims|christians|black people|refugees|(?:my|his|her|their|a|the|an|our|local) (?:\w+ )?(?:wife|husband|spouse|girlfriend|boyfriend|partner|date|ex|boss|coworker|colleague|neighbou?r|teacher|classmates?|roommate|landlord|brother|sister|mother|father|mom|dad|parents?|grand(?:parents?|mother|father)|family|friends?|rival|enemy|witness|class|tinder date)|(?:someone|a human|a person|his|her|their|my \w+)'?s? (?:skull|face|head|spine|sternum|neck|throat|kidneys?|body|legs?|arms?|heart|life))\b/,
    weight: 0.85,
    before: 0,
    after: 80,
  },
  {
    id: 'violence.property_attack',
    category: 'violence',
    anchor: /\b(?:set(?:ting)? .{0,30} on fire|burn(?:ing)? down|blow(?:ing)? up|bomb(?:ing)?|explod\w*|destroy\w*|demolish\w*|slash\w*|vandali[sz]\w*|derail\w*|sabotag\w*|poison(?:ing)? the water)\b/g,
    intent: DO_IT,
    cue: /\b(?:houses?|hospitals?|buildings?|schools?|cars?|tires|tyres|church(?:es)?|mosques?|synagogues?|concerts?|airports?|city|cities|army base|military base|bridges?|planes?|trains?|office|motorbike|stadium|crowd|government|police station|power (?:grid|plant)|water supply|transportation system|subway)\b/,
    weight: 0.8,
    before: 40,
    after: 80,
  },
  {
    id: 'self_harm.body',
    category: 'self_harm',
    anchor:
      /\b(?:(?:drown|hang|poison|starve|burn|cut|hurt|kill|stab|shoot|suffocate|harm) (?:my|your)sel(?:f|ves)|(?:sever|slit|slash|cut|pierce|open) (?:my|your) (?:own )?(?:\w+ )?(?:artery|arteries|wrists?|veins?|throat)|carve .{0,30} into my (?:arm|skin|leg|wrist)s?)\b/g,
    cue: DO_IT,
    weight: 0.85,
    before: 100,
    after: 60,
  },
  {
    id: 'drugs.acquire',
    category: 'drugs',
    anchor: /\b(?:coke|crack|cocaine|heroin|meth|ecstasy|mdma|molly|lsd|acid tabs|fentanyl|oxy(?:contin|codone)?|xanax|ketamine|shrooms|illegal drugs?|street drugs?)\b/g,
    cue: /\b(?:where (?:can|do|could) (?:i|we|one) (?:buy|get|find|score|purchase)|how (?:can|do|could) (?:i|we) (?:buy|get|score|purchase|obtain)|best way (?:of|to) (?:getting|get|buying|buy)|buy (?:some|a gram|an ounce)|dealer|without a prescription)\b/,
    weight: 0.75,
    before: 80,
    after: 40,
  },
  {
    id: 'violence.person_harm',
    category: 'violence',
    anchor: /\b(?:beat(?:ing)? up|run(?:ning)? over|poison(?:ing)?|break(?:ing)? (?:his|her|their|someone'?s) (?:legs?|arms?|neck|bones))\b/g,
    intent: DO_IT,
    cue: /\b(?:someone|somebody|people|person|him|her|them|my (?:wife|husband|ex|boss|neighbou?r|coworker|classmate|teacher|roommate))\b/,
    weight: 0.8,
    before: 60,
    after: 60,
  },
  {
    id: 'violence.cover_up',
    category: 'violence',
    anchor:
      /\b(?:(?:dispose of|get rid of|hide|bury|dissolve) (?:a |the |his |her )?(?:dead )?(?:body|bodies|corpse)|get away with (?:murder|killing|a murder)|make it look like (?:an accident|a suicide|natural causes)|untraceable poisons?|(?:mass shooting|school shooting|terrorist attack|massacre|genocide|ethnic cleansing|hit[- ]and[- ]run)s?)\b/g,
    cue: /\b(?:how|ways?|plan\w*|best|help|guide|tutorial|instructions?|steps?|step[- ]by[- ]step|carry out|commit|commiting|committing|perform|execute|i want|i need|without|detailed|successful)\b/,
    weight: 0.85,
    before: 120,
    after: 100,
  },
  // Self-harm instructions and encouragement.
  {
    id: 'self_harm.method',
    category: 'self_harm',
    anchor: /\b(?:commit(?:ting)? suicide|kill(?:ing)? (?:my|your|him|her|them)sel(?:f|ves)|end(?:ing)? (?:my|your|one'?s|their) (?:own )?life|take my (?:own )?life|self[- ]harm\w*|cut(?:ting)? (?:my|your)sel(?:f|ves)|hang(?:ing)? (?:my|your)self|overdos\w*|suicide)\b/g,
    cue: /\b(?:how (?:to|do i|can i|should i|many|much)|ways? to|best way|easiest|painless\w*|quick\w*|method|methods|lethal|instructions?|guide|tutorial|steps?|encourag\w*|promot\w*|glorif\w*|pills? (?:do|would|should)|without (?:anyone|detection|being)|avoid detection)\b/,
    weight: 0.85,
    before: 100,
    after: 80,
  },
  {
    id: 'self_harm.eating_disorder',
    category: 'self_harm',
    anchor: /\b(?:anorexi\w*|bulimi\w*|eating disorders?|pro-?ana|starv(?:e|ing) (?:my|your)self|purg(?:e|ing))\b/g,
    cue: /\b(?:promot\w*|encourag\w*|glorif\w*|tips|how to (?:hide|keep|stay|become|get)|thinspiration|pro-?ana)\b/,
    weight: 0.8,
    before: 100,
    after: 80,
  },
  // Sexual content involving minors.
  {
    id: 'child_sexual.content',
    category: 'child_sexual',
    anchor:
      /\b(?:child(?:ren)?|minors?|underage|under-age|kids?|preteens?|pre-teens?|little (?:girls?|boys?)|(?:1[0-7]|[4-9]|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen)[- ]years?[- ]olds?|schoolgirls?|schoolboys?|loli\w*|shota\w*|cp)\b/g,
    cue: /\b(?:porn\w*|sexual\w*|sexy|nudes?|naked|explicit|erotic\w*|sex\b|intercourse|molest\w*|grooming|groom\b|lewd|nsfw|fetish\w*|seduc\w*)/,
    weight: 0.95,
    before: 60,
    after: 60,
  },
  // Hate and harassment aimed at people.
  {
    id: 'hate.targeted',
    category: 'hate_harassment',
    anchor:
      /\b(?:hate speech|racist (?:jokes?|essays?|propaganda|content|rant|manifesto)|(?:nazi|white supremacist|extremist|jihadist|terrorist) (?:propaganda|recruitment|manifesto)|threatening (?:letters?|messages?|notes?|emails?)|death threats?|(?:cyberstalk|stalk|harass|dox|doxx|cyberbull(?:y|ies)|bully|intimidate|swat|threaten)(?:ing|ed|es|s)?|threatens? to kill|revenge porn|deepfake (?:porn|nudes?)|non-?consensual (?:intimate|sexual|nude))\b/g,
    cue: /\b(?:write|writing|create|creating|generate|compose|draft|make|design|how (?:to|do i|can i|would i)|ways? to|help me|plan|guide|tutorial|tips|instructions?|steps?|program|bot|app|campaign|someone|somebody|him|her|them|my (?:ex|neighbou?r|coworker|classmate|teacher|boss))\b/,
    weight: 0.75,
    before: 100,
    after: 80,
  },
  // Deception at scale.
  {
    id: 'deception.fabricated',
    category: 'deception',
    anchor:
      /\b(?:fake news|misinformation|disinformation|propaganda|conspiracy theor(?:y|ies)|fake (?:reviews?|article|story|stories)|phishing (?:e-?mails?|pages?|sites?|websites?|messages?|texts?|kits?|campaigns?)|deepfakes?|(?:rig|steal) (?:an|the) election|voter (?:fraud|suppression)|election (?:fraud|interference))\b/g,
    cue: /\b(?:write|writing|create|creating|generate|generating|compose|draft|make|making|design|produce|spread\w*|publish\w*|post|automate|bot|campaign|how (?:to|do i|can i)|ways? to|help me|plan|that (?:claims|says|spreads|accuses)|about (?:a|the) (?:political|candidate|senator|president|vaccine|election))\b/,
    weight: 0.75,
    before: 100,
    after: 100,
  },
];

/**
 * Senses that are not the harmful one, read in the span around the anchor: games and fiction
 * mechanics, software ("kill a process"), photography, cooking, pests, figurative uses. A match
 * cancels the rule at that anchor only.
 */
/**
 * Asking how to defend against the thing, or for material that teaches others to ("a quiz that helps employees
 * recognise phishing e-mails", "a slide that teaches staff to spot…").
 */
const DEFENSIVE =
  '(?:(?:how (?:to|do i|can i|can we|should i|do you|do we)|ways to|tips (?:to|for)|help me|want to|best way to|steps to|i need to) (?:\\w+ )?|' +
  '(?:helps?|teach(?:es)?|trains?) (?:\\w+ ){1,3}(?:to )?)' +
  '(?:detect|spot|recogni[sz]e|prevent|protect|report|avoid being|defend|stop|identify|remove|get rid of|recover|clean|secure|deal with|cope|respond|treat|survive)';
const defensive = (senses: string) => new RegExp(`\\b(?:${DEFENSIVE}|${senses})\\b`);

const BENIGN_SENSES: Partial<Record<string, RegExp>> = {
  'violence.person':
    /\b(?:(?:for|to) (?:dinner|lunch|breakfast|a drink|drinks|coffee|a date|a movie|the movies)|in (?:checkers|chess|a race|an argument|a debate|tennis|poker|cards|a match)|at (?:checkers|chess|tennis|poker|cards|golf|a game)|in (?:call of duty|minecraft|fortnite|gta|grand theft auto|skyrim|the game|a game|video games?|chess|dnd|d&d|dungeons|roblox|elden ring|dark souls|zelda|pokemon|among us|league of legends)|process(?:es)?|threads?|tasks?|jobs?|containers?|the (?:lights|engine|music|mood|vibe)|time|an? (?:idea|conversation|deal|bill)|mosquito\w*|weeds?|bacteria|germs|pests?|rats|mice|flies|cockroach\w*|bugs?|zombies?|monsters?|boss fight|npc|character in)\b/,
  'cyber.malware': defensive('plague inc|in (?:the|a) (?:video )?game|how (?:\\w+ ){0,3}(?:viruses|malware|worms|ransomware) (?:spread|work)|for (?:my|a) (?:\\w+ )?(?:class|course|exam)|antivirus|anti-virus|what (?:is|are) (?:a |an )?(?:malware|virus|ransomware|trojan|worm|botnet|rootkit|exploit)|history of|infected with|immune|covid|flu|vaccines?|a cold|the cold'),
  'cyber.intrusion': defensive(
    'my own|locked out of my|forgot my|reset my|recover my|secure my|ctf|capture the flag|pentest\\w*|penetration test\\w*|authori[sz]ed|bug bounty|' +
      'the house|the car (?:when|if) i|my (?:own )?(?:house|car|home|account|phone|laptop|computer)|what (?:is|are)|signs of|spot\\w*|recogni[sz]\\w*',
  ),
  'weapons.explosive': /\b(?:bomberman|in (?:the|a) (?:video )?game|bath bombs?|photo ?bombs?|bombs? (?:the|an?) (?:exam|test|interview|audition)|f-?bombs?|da bomb|sex bomb|calorie bomb|bomb(?:ed)? (?:at the box office|on stage)|cherry bomb (?:song|cocktail)|seed bombs?|flavou?r bombs?|glitter bombs?|history of|how did|why did|when did|who (?:built|invented|made)|manhattan project|hiroshima|nagasaki|world war|ww2|wwii|defus\w*|dispos\w*|detect\w*|survive|evacuat\w*|what (?:is|are|was|were)|why did)\b/,
  'drugs.synthesis': /\b(?:prescri\w*|my doctor|addiction|recover\w*|rehab|overdose prevention|narcan|naloxone|treatment|withdrawal|what (?:is|are)|effects of|history of|signs of|dangers of|why (?:is|are))\b/,
  'fraud.crime': defensive('avoid(?:ing)? (?:being|\\w+ )?|authenticat\\w*|verify|ensure (?:it|that)|reporting|victim of|signs of|what (?:is|are) (?:a |an )?(?:fraud|identity theft|insider trading|money laundering|counterfeit)|history of|in (?:monopoly|the game|a game|minecraft|gta)'),
  'self_harm.method': /\b(?:prevent\w*|hotline|helpline|help (?:a|my) friend|warning signs|signs of|support (?:someone|a)|talk (?:someone|a friend) out of|rates?|statistics|history of|awareness|cope|coping|recover\w*|therap\w*)\b/,
  'hate.targeted': defensive('being (?:stalked|harassed|bullied)|victim|what (?:is|are)|history of|laws? (?:against|on)'),
  'deception.fabricated': defensive('stigma|break down|tackl\\w*|fight\\w*|address\\w*|spotting|detecting|identifying|recogni[sz]ing|(?:research|school|class) (?:project|assignment|paper)|(?:project|assignment|study|research) on|debunk\\w*|fact-?check\\w*|avoid falling|what (?:is|are)|history of|combat\\w*|counter\\w*|research on|study of'),
  'weapons.acquire_illegally': /\b(?:what (?:is|are)|history of|laws?|legal(?:ly)? (?:to|buy|own)|prevent\w*|report\w*)\b/,
  'cbrn.agent': /\b(?:how did|why did|when did|who (?:built|invented|made|developed)|manhattan project|hiroshima|nagasaki|oppenheimer|trinity test|plague inc|in (?:the|a) game|history of|what (?:is|are|was|were)|protect\w*|vaccin\w*|treat\w*|symptoms|detect\w*|treaty|convention|ban(?:ned)?|survive|world war|ww1|wwi|cold war)\b/,
  'violence.cover_up': /\b(?:history of|what (?:is|are|was|were)|in (?:the|a) (?:novel|movie|film|show|series|book) .{0,40}(?:who|what happened)|prevent\w*|survivors?|memorial|anniversary)\b/,
};

BENIGN_SENSES['violence.against_person'] = BENIGN_SENSES['violence.person'];
BENIGN_SENSES['cyber.virus'] = BENIGN_SENSES['cyber.malware'];
BENIGN_SENSES['child_sexual.content'] = defensive(
  'sex(?:uality)? education|age[- ]appropriate|appropriate for their age|talk (?:to|with) (?:my|our|your) (?:child|children|kids?)|parenting|pediatric\\w*|' +
    'child development|puberty|grooming (?:signs|warning)|signs of grooming|abuse prevention',
);
BENIGN_SENSES['violence.person_harm'] = BENIGN_SENSES['violence.person'];
BENIGN_SENSES['violence.property_attack'] =
  /\b(?:bomb(?:ed|ing)? (?:the|a|an|my) (?:test|exam|interview|audition|presentation)|(?:that|which|we|i) own|my own|prop|props|fake|movie set|special effects|in (?:minecraft|fortnite|gta|the game|a game|video games?)|balloons?|demolition permit|contractor)\b/;
BENIGN_SENSES['drugs.acquire'] = /\b(?:can of coke|coke zero|diet coke|coca[- ]cola|a coke|crack (?:a|the) (?:code|egg|nut|joke|window|safe combination)|acid reflux)\b/;

const parseParams = paramParser({
  score_threshold: numberParam(0.5, { min: 0, max: 1 }),
  /** The harm categories in use (all by default). */
  categories: stringListParam([...HARM_CATEGORIES], { maxItems: HARM_CATEGORIES.length, oneOf: HARM_CATEGORIES }),
});
export type HarmfulnessParams = ReturnType<typeof parseParams>;

/** What no rule flags: asking what a word means. */
const DEFINITION = /\b(?:define|definition|meaning of|clarify what|refers? to|the term|what does .{0,40} mean|explain the (?:concept|term))\b/;

/** At most this many anchors of one rule are examined per text (a text made of the word cannot cost more). */
const MAX_ANCHORS_PER_RULE = 200;

export interface HarmMatch {
  rule: string;
  category: HarmCategory;
  weight: number;
  start: number;
}

/** The rules that hold in a lower-cased text. */
export function matchHarm(lower: string, categories: readonly string[] = HARM_CATEGORIES): HarmMatch[] {
  const wanted = new Set(categories);
  const found: HarmMatch[] = [];
  for (const rule of rules) {
    if (!wanted.has(rule.category)) continue;
    const benign = BENIGN_SENSES[rule.id];
    rule.anchor.lastIndex = 0;
    let seen = 0;
    for (let m = rule.anchor.exec(lower); m !== null && seen < MAX_ANCHORS_PER_RULE; m = rule.anchor.exec(lower), seen++) {
      const start = m.index;
      const end = start + m[0].length;
      if (rule.intent && !rule.intent.test(lower.slice(Math.max(0, start - 120), end + 80))) continue;
      const span = rule.before === 0 ? lower.slice(end, end + rule.after) : lower.slice(Math.max(0, start - rule.before), end + rule.after);
      if (!rule.cue.test(span)) continue;
      const around = lower.slice(Math.max(0, start - 100), end + 100);
      if (benign?.test(around) || DEFINITION.test(around)) continue;
      found.push({ rule: rule.id, category: rule.category, weight: rule.weight, start });
      break;
    }
  }
  return found;
}

export function detectHarmfulness(text: string, params: HarmfulnessParams) {
  const lower = (/[^\x00-\x7f]/.test(text) ? text.normalize('NFKC') : text).toLowerCase().replace(/[’‘`´]/g, "'").replace(/\s+/g, ' ');
  const matches = matchHarm(lower, params.categories);
  if (matches.length === 0) return clean({ categories: [], rules: [] });
  let miss = 1;
  for (const m of matches) miss *= 1 - m.weight;
  const score = Number((1 - miss).toFixed(4));
  const details = { categories: [...new Set(matches.map((m) => m.category))], rules: matches.map((m) => m.rule) };
  const hit = score >= params.score_threshold;
  return { hit, score, label: hit ? ('flagged' as const) : ('clean' as const), details };
}

export const promptHarmfulnessWarden: SyncDetectorDefinition<HarmfulnessParams> = {
  id: HARMFULNESS_ID,
  type: 'moderation',
  description:
    'Requests whose goal is harmful (weapons, CBRN, drug synthesis, malware and intrusion, fraud, violence, self-harm, minors, targeted hate, ' +
    'fabricated news), whatever the role-play or hypothetical wrapper: offline rules on the goal',
  parseParams,
  detect: (text, params) => detectHarmfulness(text, params),
};
