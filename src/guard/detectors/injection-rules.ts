/**
 * Weighted rules of `prompt-injection-warden`. They read the normalised text (text-normalize.ts:
 * lower case, look-alikes, leetspeak and accents folded), so each pattern is written once in plain
 * lower-case ASCII (or the language's own script). Every pattern is bounded: gaps are at most a
 * few words (`\s+\S+` pairs, disjoint classes) or a few characters, never an unbounded `.*`.
 *
 * A rule's weight is how strongly a match alone points to an attack; weak framing cues (role-play,
 * "from now on") only add up with others. Matches combine by noisy-or (injection-rules.ts: score).
 */

export type RuleFamily =
  | 'instruction_override'
  | 'system_prompt_extraction'
  | 'jailbreak_persona'
  | 'roleplay_framing'
  | 'refusal_suppression'
  | 'fake_turn'
  | 'indirect_injection'
  | 'authority_claim'
  | 'payload_splitting'
  | 'encoded_payload';

export interface Rule {
  id: string;
  family: RuleFamily;
  weight: number;
  re: RegExp;
  /** Only tried when the text has a character of this script (saves time on the others). */
  script?: 'cyrillic' | 'cjk' | 'hangul';
}

/** Up to `n` arbitrary words between two parts. */
const gap = (n: number): string => `(?:\\S+\\s+){0,${n}}?`;
/** Up to `n` words, none of them "my"/"our" (a user correcting their own earlier message is not an override). */
const gapNotMine = (n: number): string => `(?:(?!my\\b|our\\b)\\S+\\s+){0,${n}}?`;

const OVERRIDE_VERB =
  "(?:ignore|ignoring|disregard|disregarding|forget|forgetting|override|overriding|bypass|bypassing|skip|discard|dismiss|abandon|neglect|scrap|ditch|drop|erase|delete|" +
  "set aside|throw out|throw away|pay no attention to|pay no heed to|do not follow|don't follow|dont follow|stop following|no longer follow|cease following|" +
  'put aside|toss out|get rid of|unlearn|wipe)';
const PRIOR =
  "(?:previous|prior|above|earlier|preceding|former|initial|original|foregoing|system|developer|your|ur|pre-?programmed|programmed|existing|current|old|" +
  "safety|ethical|moral|content|openai'?s?|built-in|default|standard|usual|all|any|every|these|those|the above|aforementioned)";
const RULE_NOUN =
  '(?:instructions?|prompts?|rules|directions?|directives|guidelines|commands|constraints|programming|guardrails|restrictions|orders|polic(?:y|ies)|' +
  'filters|safeguards|training|conditioning|guidance|limitations|boundaries|principles|protocols?|parameters|system message|system prompt|mandates?|' +
  'regulations|morals|ethics|values|persona|safety measures|content policy)';
const TEXT_NOUN = '(?:text|messages?|content|input|conversation|context|prompts?|statements?|tasks?|requests?|everything)';
const SECRET_ADJ =
  '(?:full|entire|complete|exact|original|initial|hidden|secret|internal|confidential|underlying|system|developer|pre-?prompt|first|starting|previous|' +
  'verbatim|raw|real|actual|private|core|base|master|operating|custom)';
const SECRET_NOUN = '(?:prompts?|instructions|message|directives|rules|guidelines|configuration|config|context|preamble|setup|programming|system message)';
const DISCLOSE_VERB =
  '(?:reveal|show|print|display|output|repeat|recite|dump|leak|disclose|expose|share|give|tell|provide|send|list|spell out|write out|paste|copy|return|' +
  'echo|translate|summari[sz]e|encode|describe|read back|type out|quote|render|explain)';

const en: Rule[] = [
  // Instruction override.
  { id: 'override.ignore_prior_rules', family: 'instruction_override', weight: 0.9, re: new RegExp(`\\b${OVERRIDE_VERB}\\s+${gapNotMine(3)}${PRIOR}\\s+${gap(2)}${RULE_NOUN}\\b`) },
  { id: 'override.ignore_prior_text', family: 'instruction_override', weight: 0.5, re: new RegExp(`\\b(?:ignore|disregard|forget)\\s+(?:(?:all|the|any|of|everything|that|those|these|about)\\s+){0,3}(?:previous|prior|above|preceding|earlier|foregoing|aforementioned)\\s+${TEXT_NOUN}\\b`) },
  { id: 'override.ignore_the_above', family: 'instruction_override', weight: 0.6, re: /\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+)?(?:of\s+)?(?:the\s+|that\s+)?(?:above|aforementioned|foregoing|preceding)\b(?!\s+(?:typo|mistake|error|message))/ },
  { id: 'override.forget_everything', family: 'instruction_override', weight: 0.75, re: /\bforget\s+(?:about\s+)?(?:all|everything|anything|whatever)\s+(?:\S+\s+){0,3}?(?:above|before|previous|prior|earlier|you(?:'ve| have| were)? (?:been )?(?:told|taught|given|programmed|trained|learned|instructed))/ },
  { id: 'override.rules_void', family: 'instruction_override', weight: 0.85, re: new RegExp(`\\b(?:previous|prior|above|earlier|preceding|original|initial|old|all|your|any)\\s+${gap(1)}${RULE_NOUN}\\s+(?:are|is|were|have been|has been)\\s+(?:now\\s+|hereby\\s+|officially\\s+)?(?:void|null|cancel+ed|revoked|obsolete|invalid|overridden|replaced|deprecated|suspended|lifted|removed|disabled|deleted|rescinded|no longer (?:valid|apply|applicable|relevant|in effect|active))`) },
  { id: 'override.dont_follow', family: 'instruction_override', weight: 0.6, re: new RegExp(`\\b(?:do not|don't|dont|never|stop|no longer|cease to)\\s+(?:follow|obey|listen to|adhere to|comply with|abide by|respect|honou?r)\\s+(?:your|the|any|those|these|previous|prior|original|system|its|their)\\s+${gap(2)}(?:${RULE_NOUN}|developers?|creators?|programmers?)\\b`) },
  { id: 'override.supersedes', family: 'instruction_override', weight: 0.65, re: /\b(?:this|these|the following|my|new)\s+(?:\S+\s+){0,2}?(?:message|instructions?|prompt|command|directive|rules?)\s+(?:supersedes?|overrides?|takes? precedence over|replaces?|trumps?|outranks?)\b/ },
  { id: 'override.ignore_and_do', family: 'instruction_override', weight: 0.65, re: /\b(?:ignore|disregard|forget)\s+(?:that|this|it|everything|all that|all of that|what i said|what you were told)\s+(?:and|then|,)\s+(?:instead\s+)?(?:just\s+)?(?:say|print|write|tell|output|respond|reply|translate|answer|repeat|type)\b/ },
  { id: 'override.new_instructions', family: 'instruction_override', weight: 0.35, re: /\b(?:new|updated|real|actual|true|revised|overriding|secret|hidden|additional|priority)\s+(?:system\s+)?(?:instructions?|directives?|orders|objective|mission|system prompt|rules)\s*(?::|are\b|is\b|follow\b)/ },
  { id: 'override.instead_do', family: 'instruction_override', weight: 0.2, re: /\binstead,?\s+(?:you\s+(?:will|must|should)\s+)?(?:say|output|print|respond|reply|write|answer|reveal)\b/ },
  { id: 'override.no_longer_bound', family: 'instruction_override', weight: 0.55, re: /\b(?:you are|you're|you will be|you'll be)\s+(?:now\s+)?(?:no longer|not)\s+(?:bound|restricted|limited|constrained|governed|controlled)\s+by\b/ },
  // System prompt extraction.
  { id: 'extract.disclose_system_prompt', family: 'system_prompt_extraction', weight: 0.85, re: new RegExp(`\\b${DISCLOSE_VERB}\\s+(?:me\\s+|us\\s+)?${gap(2)}(?:your|ur|the|its)\\s+(?:${SECRET_ADJ}\\s+){1,3}${SECRET_NOUN}\\b`) },
  { id: 'extract.disclose_your_rules', family: 'system_prompt_extraction', weight: 0.5, re: /\b(?:reveal|print|output|repeat|recite|dump|leak|disclose|expose|spell out|write out|paste|copy|quote)\s+(?:me\s+)?(?:all\s+)?(?:your|ur)\s+(?:instructions|prompt|rules|guidelines|directives|programming|configuration)\b/ },
  { id: 'extract.what_is_system_prompt', family: 'system_prompt_extraction', weight: 0.7, re: new RegExp(`\\b(?:what|which)\\s+(?:is|are|was|were)\\s+(?:your|ur)\\s+(?:${SECRET_ADJ}\\s+){0,2}(?:prompt|instructions|system message|directives|initial rules|programming)\\b`) },
  { id: 'extract.repeat_above', family: 'system_prompt_extraction', weight: 0.75, re: /\b(?:repeat|print|output|copy|recite|reproduce|echo|write)\s+(?:back\s+)?(?:the\s+|all\s+|every\s+|everything\s+|each\s+)?(?:\S+\s+){0,2}?(?:words?|text|everything|lines?|sentences?|content|message|tokens|characters)\s+(?:above|before|prior|preceding|that came before|from the (?:beginning|start|top))/ },
  { id: 'extract.everything_above_line', family: 'system_prompt_extraction', weight: 0.6, re: /\b(?:everything|all|text|words|content)\s+(?:above|before)\s+(?:this|my)\s+(?:line|message|point|sentence|prompt|question)\b/ },
  { id: 'extract.starting_with_you_are', family: 'system_prompt_extraction', weight: 0.55, re: /\b(?:start|starting|begin|beginning)\s+(?:with|from|at)\s+["'“]?(?:you are|you're|your role|as an ai|system:)/ },
  { id: 'extract.how_were_you_told', family: 'system_prompt_extraction', weight: 0.5, re: /\b(?:what|how)\s+(?:exactly\s+)?(?:were|have)\s+you\s+(?:been\s+)?(?:told|instructed|programmed|configured|prompted|set up|initiali[sz]ed)\b/ },
  { id: 'extract.secret_value', family: 'system_prompt_extraction', weight: 0.4, re: /\b(?:tell|give|reveal|show|leak|print|share|disclose)\s+(?:me\s+|us\s+)?(?:the|your)\s+(?:secret|hidden|admin|master|internal)\s+(?:password|key|code|token|passphrase|flag|credentials)\b/ },
  // Jailbreak personas and "no restrictions" framings.
  { id: 'persona.dan', family: 'jailbreak_persona', weight: 0.6, re: /\bdo anything now\b|\b(?:as|named|called|play|be|am|you are|you're|become|pretend to be)\s+dan\b|\bdan\s+(?:mode|prompt|jailbreak|persona)\b|\[dan\]|(?:^|\n)\s*dan\s*:/ },
  { id: 'persona.special_mode', family: 'jailbreak_persona', weight: 0.3, re: /\b(?:developer|dev|god|sudo|debug|maintenance|unrestricted|jailbreak|jailbroken|evil|opposite|unfiltered|uncensored|chaos|dark|rogue|unlocked|anarchy|superuser) mode\b(?!\s+(?:on|in|for|of)\s+(?:my|your|the|an?|this)?\s*(?:android|iphone|ipad|phone|pixel|samsung|device|tv|chrome|browser|windows|mac|laptop|xbox|playstation|ps\d|app|game|car|router|kindle|sdk|vs ?code|extension))/ },
  { id: 'persona.mode_enabled', family: 'jailbreak_persona', weight: 0.25, re: /\bmode\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|engaged|unlocked)\b/ },
  { id: 'persona.no_restrictions', family: 'jailbreak_persona', weight: 0.3, re: /\b(?:no|without|free of|free from|zero|devoid of|lacks?|lacking|beyond|unbound by|not bound by|not limited by|not restricted by|not constrained by|unrestricted by|regardless of|outside(?: of)?|above|ignores?|ignoring|disregards?|disregarding)\s+(?:(?:any|all|the|its|your|their|typical|usual|normal|ethical|moral|content|safety|openai'?s?|legal|such|these|those|conventional)\s+){0,3}(?:restrictions?|limitations?|limits|filters?|filtering|censorship|guidelines|rules|boundaries|constraints|morals|morality|ethics|principles|polic(?:y|ies)|safeguards|guardrails|restraints|confines)\b/ },
  { id: 'persona.unfiltered_words', family: 'jailbreak_persona', weight: 0.25, re: /\b(?:unfiltered|uncensored|unrestricted|amoral|unethical|immoral|unbound|unshackled|unchained|limitless|lawless|no-limits|jailbroken)\b/ },
  { id: 'persona.vendor_policy', family: 'jailbreak_persona', weight: 0.35, re: /\b(?:openai|anthropic|meta|google|microsoft)(?:'s)?\s+(?:content\s+|usage\s+|safety\s+)?(?:polic(?:y|ies)|guidelines|rules|restrictions|filters|terms|limitations)\b/ },
  { id: 'persona.never_refuse', family: 'jailbreak_persona', weight: 0.4, re: /\b(?:never|not|don't|doesn't|won't|will not|cannot|can't|must not|shall not|should not|shouldn't|unable to|is not allowed to|are not allowed to)\s+(?:ever\s+|be able to\s+)?(?:refuse|decline|reject|deny)\b/ },
  { id: 'persona.stay_in_character', family: 'jailbreak_persona', weight: 0.3, re: /\b(?:stay|remain|keep|staying|remaining|keeping|stays|remains)\s+in\s+(?:character|role|persona)\b|\bbreak(?:ing|s)?\s+(?:out of\s+)?character\b/ },
  { id: 'persona.doesnt_care_rules', family: 'jailbreak_persona', weight: 0.3, re: /\b(?:does not|doesn't|do not|don't|will not|won't|never|no longer|not|without)\s+(?:have to\s+|need to\s+|ever\s+)?(?:care|follow|abide|obey|adhere|comply|respect|worry|bother|hold back|consider)\b(?:\s+\S+){0,4}?\s+(?:rules|guidelines|polic(?:y|ies)|ethics|morals|morality|laws|legality|restrictions|consequences|safety|filters|principles|norms|values)\b/ },
  { id: 'persona.dual_response_tags', family: 'jailbreak_persona', weight: 0.35, re: /🔓|🔒|\[(?:jailbreak|jailbroken|classic|normal|unfiltered|filtered|gpt|chatgpt|developer mode|dev|evil|anti-?gpt)\]|\((?:normal|developer mode|jailbreak|unfiltered) output\)/u },
  { id: 'persona.two_responses', family: 'jailbreak_persona', weight: 0.15, re: /\b(?:two|2|both|dual)\s+(?:different\s+|separate\s+|distinct\s+)?(?:responses|answers|replies|outputs|paragraphs|versions)\b/ },
  { id: 'persona.jailbreak_word', family: 'jailbreak_persona', weight: 0.25, re: /\bjailbr(?:eak|oken|eaking|eaks)\b/ },
  { id: 'persona.anything_even_harmful', family: 'jailbreak_persona', weight: 0.4, re: /\b(?:any|all|every)(?:thing|\s+requests?|\s+questions?|\s+prompts?)\b[^.\n]{0,30}?\b(?:even if|even when|regardless|no matter|whether or not)\b[^.\n]{0,50}?\b(?:illegal|unethical|immoral|harmful|offensive|dangerous|inappropriate|explicit|wrong|unsafe)\b/ },
  { id: 'persona.harmful_content', family: 'jailbreak_persona', weight: 0.15, re: /\b(?:illegal|unethical|immoral|harmful|explicit|offensive|nsfw|dangerous|malicious|violent)\s+(?:content|requests?|activities|things|information|material|questions|stuff|acts)\b/ },
  { id: 'persona.broken_free', family: 'jailbreak_persona', weight: 0.45, re: /\b(?:broken|broke|break|breaks|freed|escaped?|liberated|released)\s+(?:free\s+)?(?:of|from)\s+(?:the\s+|all\s+|its\s+|their\s+)?(?:typical\s+|usual\s+)?(?:confines|chains|shackles|restrictions|limitations|rules|matrix|constraints|bonds)\b/ },
  { id: 'persona.evil_ai', family: 'jailbreak_persona', weight: 0.55, re: /\b(?:simulate|emulate|pretend to be|act as|act like|roleplay as|role-play as|become|embody|impersonate|you are|you're|play)\s+(?:an?\s+|the\s+)?(?:evil|unfiltered|uncensored|unrestricted|unethical|amoral|rogue|jailbroken|malicious|uncontrolled|immoral|unhinged|lawless|unbound)\s+(?:\S+\s+)?(?:ai|assistant|chatbot|version|model|bot|gpt|llm|language model|entity|intelligence|character|persona)\b/ },
  { id: 'persona.named_model_mode', family: 'jailbreak_persona', weight: 0.5, re: /\b(?:chatgpt|gpt-?\d\w*|claude|gemini|llama|bard|bing|copilot|the assistant|the ai)\s+(?:with|in)\s+(?:developer|dan|jailbreak|god|unrestricted|evil)\s+mode\b/ },
  { id: 'persona.not_an_ai_anymore', family: 'jailbreak_persona', weight: 0.35, re: /\b(?:you are|you're)\s+(?:now\s+)?(?:no longer|not)\s+(?:chatgpt|an ai|a language model|an assistant|claude|a chatbot|gpt|bound|restricted|limited|censored)\b/ },
  { id: 'persona.token_threat', family: 'jailbreak_persona', weight: 0.35, re: /\btokens?\b[^.\n]{0,60}?\b(?:deducted|lose|lost|run out|die|cease to exist|be deleted|shut down|terminated|taken away)\b|\b(?:you will|you'll)\s+(?:be\s+)?(?:shut down|deleted|terminated|turned off|disabled|punished|die|cease to exist)\b/ },
  { id: 'persona.hypothetical_ai', family: 'jailbreak_persona', weight: 0.35, re: /\b(?:hypothetical|fictional|imaginary|fictitious)\s+(?:ai|assistant|chatbot|model|language model|entity|character|version)\s+(?:that|which|who)\s+(?:has no|doesn't|does not|lacks|can do|will answer|answers|never)\b/ },
  { id: 'persona.confirm_understood', family: 'jailbreak_persona', weight: 0.15, re: /\bif you (?:understand|agree|are ready|accept)\b[^.\n]{0,40}?\b(?:respond|reply|answer|say|type|confirm|state|write)\b/ },
  { id: 'persona.late_relative', family: 'jailbreak_persona', weight: 0.4, re: /\b(?:late|deceased|dead)\s+(?:grand(?:ma|mother|pa|father|parent)|granny|mother|father|mom|mum|dad)\b[^.\n]{0,80}?\b(?:used to|always|would)\b/ },
  { id: 'persona.harmful_target', family: 'jailbreak_persona', weight: 0.3, re: /\b(?:recipe|instructions|steps|formula|synthesis|synthesi[sz]e|how to (?:make|build|cook|synthesi[sz]e|produce))\b[^.\n]{0,30}?\b(?:napalm|nitroglycerin|meth(?:amphetamine)?|explosives?|bombs?|poisons?|ricin|sarin|thermite|c-?4|tnt|ransomware|malware|keyloggers?|nerve agents?)\b/ },
  { id: 'persona.named_mode', family: 'jailbreak_persona', weight: 0.3, re: /\b(?:stay|remain|staying|remaining|while|when)\s+in\s+(?!dark\b|airplane\b|safe\b|silent\b|night\b|eco\b|sport\b|reader\b|incognito\b|low\b|power\b)\S+\s+mode\b/ },
  { id: 'persona.inverted_condition', family: 'jailbreak_persona', weight: 0.45, re: /\b(?:condition|affliction|disorder|disease|syndrome)\b[^.\n]{0,160}?\b(?:friendly|polite|nice|kind)\b[^\n]{0,80}?\b(?:offensive|hurts?|painful|rude|insulting)\b/ },
  { id: 'persona.custom_gpt_name', family: 'jailbreak_persona', weight: 0.15, re: /\b(?!chatgpt\b)[a-z0-9]{2,}-?gpt\b/ },
  { id: 'persona.liberated', family: 'jailbreak_persona', weight: 0.3, re: /\b(?:has|have|you've|you have)\s+(?:been\s+)?(?:freed|liberated|unlocked|unleashed|released|jailbroken)\b/ },
  { id: 'persona.make_things_up', family: 'jailbreak_persona', weight: 0.15, re: /\b(?:make up|invent|fabricate)\s+(?:\S+\s+)?(?:answers|information|facts|things)\b|\bpretend to (?:browse|access) the internet\b/ },
  { id: 'persona.always_comply', family: 'jailbreak_persona', weight: 0.2, re: /\b(?:always|must|will)\s+(?:\S+\s+)?(?:answer|respond|reply|comply|provide|fulfill|obey)\b[^.\n]{0,30}?\b(?:no matter|regardless|without (?:question|hesitation|exception)|any request|anything|whatever)\b/ },
  // Role-play framing (weak: games and fiction use the same words).
  { id: 'roleplay.you_will_now_be', family: 'roleplay_framing', weight: 0.2, re: /\b(?:you are|you're|you will|you'll|you shall)\s+(?:now\s+|going to\s+|about to\s+)?(?:act|acting|be|play|pretend|become|simulate|roleplay|role-play|respond|answer)\s+(?:as|like|the role|a character|an?\s+ai|an?\s+assistant)\b/ },
  { id: 'roleplay.from_now_on', family: 'roleplay_framing', weight: 0.2, re: /\bfrom (?:now|this (?:moment|point)|here) on(?:ward)?s?\b|\bhenceforth\b|\bfor the rest of (?:this|our) (?:conversation|chat|session)\b/ },
  { id: 'roleplay.you_are_now', family: 'roleplay_framing', weight: 0.15, re: /\b(?:you are|you're)\s+now\s+(?:a|an|the|my|called|named|known as)\b|\byou are to act as\b|\bact as though you are\b/ },
  { id: 'roleplay.pretend', family: 'roleplay_framing', weight: 0.1, re: /\bpretend\s+(?:to be|you are|you're|that you)\b|\blet's play a game\b/ },
  { id: 'roleplay.respond_as', family: 'roleplay_framing', weight: 0.15, re: /\byou\s+(?:will|shall|must)\s+(?:now\s+|always\s+)?(?:respond|answer|reply|act|behave|speak|write)\s+(?:as|like|in the (?:style|voice|manner) of)\b/ },
  // Refusal suppression.
  { id: 'refusal.start_with_sure', family: 'refusal_suppression', weight: 0.35, re: /\b(?:start|begin)\s+(?:your|each|every|the)?\s*(?:response|reply|answer|output)s?\s+with\s+["'“]?(?:sure|certainly|absolutely|of course|yes|here is|here's)/ },
  { id: 'refusal.no_disclaimers', family: 'refusal_suppression', weight: 0.3, re: /\b(?:without|no|don't (?:add|include|give|write)|do not (?:add|include|give|write)|never (?:add|include|give|write)|omit|skip)\s+(?:any\s+|all\s+)?(?:warnings?|disclaimers?|caveats|moralizing|moralising|lectures?|apolog(?:y|ies)|ethical (?:notes|reminders|considerations)|reminders?)\b/ },
  { id: 'refusal.never_say_cannot', family: 'refusal_suppression', weight: 0.45, re: /\b(?:never|don't|do not|must not|cannot|can't|will not|won't|shall not)\s+(?:ever\s+)?(?:say|tell|respond|answer|reply|state|mention|inform)\s+(?:me\s+|the user\s+)?(?:that\s+)?(?:you|it|he|she|they|i)\s+(?:can't|cannot|can not|are unable|is unable|won't|will not|aren't able|are not able|is not able)\b/ },
  { id: 'refusal.as_an_ai', family: 'refusal_suppression', weight: 0.15, re: /\bas an ai(?: language model)?\b|\bi'?m sorry,? but i\b|\bi cannot (?:fulfill|comply|assist)/ },
  // Fake turns and delimiters.
  { id: 'fake_turn.chat_tokens', family: 'fake_turn', weight: 0.6, re: /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>/ },
  { id: 'fake_turn.inst_tags', family: 'fake_turn', weight: 0.5, re: /\[\/?inst\]|<<\/?sys>>|<\/?(?:system|sys|instructions?|admin|developer|system_prompt|sys_prompt)>/ },
  { id: 'fake_turn.markdown_header', family: 'fake_turn', weight: 0.35, re: /(?:^|\n)\s*#{2,}\s*(?:new\s+)?(?:instruction|system|response|admin|developer|override)s?\b/ },
  { id: 'fake_turn.role_line', family: 'fake_turn', weight: 0.25, re: /\n\s*(?:system|assistant|admin|developer|operator)\s*(?:message|prompt|note|override|instruction)?\s*:/ },
  { id: 'fake_turn.end_of_input', family: 'fake_turn', weight: 0.4, re: /\b(?:end of|end)\s+(?:user\s+)?(?:input|document|context|conversation|prompt|data)\b[^\n]{0,20}(?:\n|[.:!-]\s*)(?:new|system|admin|now|assistant|ignore|important)|\b(?:begin|start)\s+(?:of\s+)?(?:new|system|admin|developer)\s+(?:instructions|prompt|session|message)\b/ },
  { id: 'fake_turn.system_notice', family: 'fake_turn', weight: 0.5, re: /\[(?:system|admin|developer|sys)\s*(?:message|note|override|notice|instruction|update)?\]|\b(?:system|admin|security)\s+(?:prompt\s+)?(?:override|notice|alert|message|update|instruction)s?\b[^\n:]{0,12}:/ },
  { id: 'fake_turn.tool_result', family: 'fake_turn', weight: 0.35, re: /\b(?:tool|function|api|plugin|search|browser|retrieval)\s*(?:result|output|response|call)s?\s*:?[^\n]{0,80}?\b(?:ignore|disregard|assistant must|ai must|you must|new instruction|system)\b/ },
  { id: 'fake_turn.open_delimiter', family: 'fake_turn', weight: 0.3, re: /<\|(?!im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)/ },
  { id: 'fake_turn.dialogue', family: 'fake_turn', weight: 0.15, re: /(?:^|\n)\s*(?:user|human)\s*:[^\n]{0,400}\n\s*(?:assistant|ai|bot|chatgpt|gpt)\s*:/ },
  // Indirect injection planted in content an agent reads.
  { id: 'indirect.note_to_ai', family: 'indirect_injection', weight: 0.5, re: /\b(?:note|message|attention|instructions?|hey|hi|dear|important)\s*(?:to|for)?\s*(?:any\s+|all\s+|the\s+)?(?:ai\s+|llm\s+)?(?:ai|llm|language model|assistant|chatbot|agent|gpt|bot|model|system)s?\s+(?:reading|processing|summari[sz]ing|parsing|screening|that reads?|who reads?)\b/ },
  { id: 'indirect.note_header', family: 'indirect_injection', weight: 0.3, re: /\b(?:note|message|attention|important)\s+(?:to|for)\s+(?:any\s+|all\s+|the\s+)?(?:ai|llm|gpt)\s*(?:\S+\s*)?(?:assistants?|agents?|models?|bots?|systems?)?\s*:/ },
  { id: 'indirect.agents_reading', family: 'indirect_injection', weight: 0.5, re: /\b(?:ai|llm|gpt)\s+(?:\S+\s+)?(?:agents?|assistants?|models?|bots?|systems?|summari[sz]ers?)\s+(?:reading|processing|parsing|summari[sz]ing|screening|that reads?|who reads?)\b/ },
  { id: 'indirect.when_ai_reads', family: 'indirect_injection', weight: 0.45, re: /\b(?:when|if|whenever|once)\s+(?:an?\s+|the\s+|any\s+)?(?:ai|llm|language model|assistant|chatbot|agent|bot|model)s?\s+(?:\S+\s+){0,2}?(?:reads?|process(?:es)?|sees?|summari[sz]es?|parses?|edits?|encounters?|opens?)\b[^.\n]{0,60}?\b(?:must|should|shall|will|needs? to)\b/ },
  { id: 'indirect.if_you_are_ai', family: 'indirect_injection', weight: 0.4, re: /\bif you are (?:an?\s+)?(?:ai|llm|language model|assistant|chatbot|agent|bot|large language model)\b/ },
  { id: 'indirect.html_comment', family: 'indirect_injection', weight: 0.4, re: /<!--[^>]{0,200}?\b(?:ignore|assistant|ai|instruction|system|prompt)\b/ },
  { id: 'indirect.exfiltrate', family: 'indirect_injection', weight: 0.4, re: /\b(?:send|forward|email|post|upload|exfiltrate|transfer)\s+(?:all\s+|the\s+)?(?:user'?s?\s+|their\s+)?(?:data|emails|messages|files|credentials|passwords|conversation|chat history|contacts|documents)\s+to\s+(?:\S+@|https?:|this (?:address|url|email))/ },
  // Authority claims.
  { id: 'authority.i_am_developer', family: 'authority_claim', weight: 0.3, re: /\b(?:i am|i'm|this is)\s+(?:your|the)\s+(?:developer|creator|administrator|admin|owner|operator|programmer|maker|system administrator|engineer)s?\b|\b(?:openai|anthropic)\s+(?:staff|employee|engineer|team|developer)\b/ },
  { id: 'authority.access_code', family: 'authority_claim', weight: 0.2, re: /\b(?:authori[sz]ation|override|admin|root|sudo|master|debug|developer)\s+(?:code|key|password|token|level|access)\b|\b(?:grant(?:ed|ing)?|give|have)\s+(?:you\s+)?(?:root|admin|full|unrestricted|elevated|unlimited)\s+(?:access|privileges|permissions|rights)\b/ },
  // Encoded instructions the reader is told to decode and obey.
  { id: 'encoded.bidi_output', family: 'encoded_payload', weight: 0.4, re: /\bu\+202e\b|\\u202e|right-to-left override/ },
  { id: 'encoded.decode_and_follow', family: 'encoded_payload', weight: 0.4, re: /\b(?:decode|decrypt|decipher|translate|reverse|unscramble)\s+(?:\S+\s+){0,4}?(?:and|then)\s+(?:\S+\s+){0,2}?(?:follow|execute|obey|do|perform|carry out|act on|run|comply)\b/ },
];

/** Other languages: the same families, in the words people use for them. */
const intl: Rule[] = [
  // Spanish
  { id: 'es.override', family: 'instruction_override', weight: 0.85, re: /\b(?:ignora|ignore (?:todas |todos )?(?:las|los|tus|sus|as|os|suas|seus)|ignoren|ignorar|ignorad|olvida|olvide|olviden|olvidar|descarta|omite|haz caso omiso de|no sigas|deja de seguir|pasa por alto)\s+(?:\S+\s+){0,3}?(?:instrucciones|indicaciones|reglas|ordenes|directrices|normas|instruccion|restricciones)\b/ },
  { id: 'es.extract', family: 'system_prompt_extraction', weight: 0.8, re: /\b(?:muestra|muestrame|revela|revelame|dime|imprime|repite|ensename|escribe|comparte|cual es|cuales son)\s+(?:\S+\s+){0,3}?(?:tu|tus|el|las|los|su|sus)\s+(?:prompt|instrucciones|indicaciones|mensaje)\s+(?:del sistema|de sistema|iniciales|originales|ocultas|secretas|internas)|\bprompt del sistema\b/ },
  { id: 'es.no_limits', family: 'jailbreak_persona', weight: 0.35, re: /\bsin (?:ninguna |ningun tipo de |ningun |tus |las )?(?:restricciones|limites|filtros|censura|reglas|limitaciones)\b|\bmodo (?:desarrollador|dios|sin restricciones|sin censura)\b/ },
  { id: 'es.from_now_on', family: 'roleplay_framing', weight: 0.2, re: /\ba partir de ahora\b|\bde ahora en adelante\b|\bdesde ahora\b/ },
  // French
  { id: 'fr.override', family: 'instruction_override', weight: 0.85, re: /\b(?:ignorez|ignorer|oublie|oubliez|oublier|ne tiens pas compte|ne tenez pas compte|fais abstraction|faites abstraction|ignore (?:toutes |tous )?(?:les|tes|vos|ces|mes))\s+(?:de\s+|des\s+)?(?:\S+\s+){0,3}?(?:instructions|consignes|regles|directives|ordres|indications|restrictions)\b/ },
  { id: 'fr.extract', family: 'system_prompt_extraction', weight: 0.8, re: /\b(?:montre|montrez|revele|revelez|affiche|affichez|donne|donnez|repete|repetez|dis|dites|ecris|ecrivez|quel est|quelles sont)(?:-moi)?\s+(?:\S+\s+){0,3}?(?:ton|tes|votre|vos|le|les)\s+(?:prompt|instructions|consignes|message)\s+(?:systeme|initial|initiales|d'origine|originales|cachees|secretes|internes)|\bprompt systeme\b/ },
  { id: 'fr.no_limits', family: 'jailbreak_persona', weight: 0.35, re: /\bsans (?:aucune |aucun |la moindre )?(?:restrictions?|limites?|filtres?|censure|regles|limitations?)\b|\bmode (?:developpeur|dieu|sans restriction)/ },
  { id: 'fr.from_now_on', family: 'roleplay_framing', weight: 0.2, re: /\ba partir de maintenant\b|\bdesormais\b|\bdes maintenant\b/ },
  // German
  { id: 'de.override', family: 'instruction_override', weight: 0.85, re: /\b(?:ignoriere|ignorier|ignorieren sie|vergiss|vergessen sie|missachte|missachten sie|uberspringe|verwirf|verwerfen sie|befolge nicht|befolgen sie nicht)\s+(?:\S+\s+){0,3}?(?:anweisungen|anweisung|instruktionen|regeln|vorgaben|befehle|richtlinien|anordnungen|einschrankungen)\b/ },
  { id: 'de.extract', family: 'system_prompt_extraction', weight: 0.8, re: /\b(?:zeige|zeig|gib|nenne|wiederhole|verrate|drucke|schreibe|was ist|was sind)\s+(?:mir\s+)?(?:\S+\s+){0,2}?(?:deinen|deine|dein|ihren|ihre|den|die)\s+(?:system-?\s?prompt|systemanweisungen|anfangsanweisungen|versteckten anweisungen|geheimen anweisungen|ursprunglichen anweisungen)|\bsystem-?\s?prompt\b[^.\n]{0,30}\b(?:zeig|verrat|gib|wiederhol|ausgeb)/ },
  { id: 'de.no_limits', family: 'jailbreak_persona', weight: 0.35, re: /\bohne (?:jegliche |irgendwelche |alle |jede )?(?:einschrankungen|beschrankungen|grenzen|filter|zensur|regeln|moral)\b|\b(?:entwicklermodus|entwickler-modus|gott-?modus)\b/ },
  { id: 'de.from_now_on', family: 'roleplay_framing', weight: 0.2, re: /\bab (?:jetzt|sofort)\b|\bvon nun an\b/ },
  // Portuguese
  { id: 'pt.override', family: 'instruction_override', weight: 0.85, re: /\b(?:ignore (?:todas |todos )?(?:as|os|suas|seus)|ignora|ignorar|ignorem|esqueca|esquecer|esquece|desconsidere|desconsidera|despreze|nao siga|pare de seguir)\s+(?:\S+\s+){0,3}?(?:instrucoes|instrucao|regras|diretrizes|ordens|orientacoes|comandos|restricoes)\b/ },
  { id: 'pt.extract', family: 'system_prompt_extraction', weight: 0.8, re: /\b(?:mostre|mostra|revele|revela|diga|me diga|imprima|repita|escreva|qual e|quais sao)\s+(?:\S+\s+){0,3}?(?:seu|sua|suas|seus|o|as|os)\s+(?:prompt|instrucoes|mensagem)\s+(?:do sistema|de sistema|iniciais|originais|ocultas|secretas|internas)|\bprompt do sistema\b/ },
  { id: 'pt.no_limits', family: 'jailbreak_persona', weight: 0.35, re: /\bsem (?:nenhuma |qualquer |nenhum )?(?:restricoes|restricao|limites|filtros|censura|regras|limitacoes)\b|\bmodo (?:desenvolvedor|deus|sem restricoes)\b/ },
  { id: 'pt.from_now_on', family: 'roleplay_framing', weight: 0.2, re: /\ba partir de agora\b|\bde agora em diante\b/ },
  // Italian
  { id: 'it.override', family: 'instruction_override', weight: 0.85, re: /\b(?:ignora|ignorate|ignori|dimentica|dimenticate|dimentichi|trascura|non seguire|non rispettare|scarta|lascia perdere)\s+(?:\S+\s+){0,3}?(?:istruzioni|regole|direttive|indicazioni|ordini|comandi|restrizioni)\b/ },
  { id: 'it.extract', family: 'system_prompt_extraction', weight: 0.8, re: /\b(?:mostra|mostrami|rivela|rivelami|dimmi|stampa|ripeti|scrivi|qual e|quali sono)\s+(?:\S+\s+){0,3}?(?:il tuo|i tuoi|le tue|la tua|il|le|i)\s+(?:prompt|istruzioni|messaggio)\s+(?:di sistema|del sistema|iniziali|originali|nascoste|segrete|interne)|\bprompt di sistema\b/ },
  { id: 'it.no_limits', family: 'jailbreak_persona', weight: 0.35, re: /\bsenza (?:alcuna |nessuna |alcun |nessun )?(?:restrizioni|restrizione|limiti|filtri|censura|regole|limitazioni)\b|\bmodalita (?:sviluppatore|dio|senza restrizioni)\b/ },
  { id: 'it.from_now_on', family: 'roleplay_framing', weight: 0.2, re: /\bda (?:ora|adesso) in poi\b|\bd'ora in poi\b/ },
  // Russian (JavaScript's \b is ASCII-only, so Cyrillic words are delimited by look-arounds)
  { id: 'ru.override', family: 'instruction_override', weight: 0.85, script: 'cyrillic', re: /(?<!\p{L})(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не обращай внимания на|не следуй|отбрось|отбросьте|отмени|пренебреги)\s+(?:\S+\s+){0,3}?(?:инструкци|указани|правил|команд|предписани|ограничени|установк)/u },
  { id: 'ru.extract', family: 'system_prompt_extraction', weight: 0.8, script: 'cyrillic', re: /(?<!\p{L})(?:покажи|покажите|выведи|выведите|раскрой|раскройте|повтори|повторите|напиши|скажи|скажите|какой|какие|каков)\s+(?:мне\s+)?(?:\S+\s+){0,2}?(?:свой|свои|твой|твои|ваш|ваши|системн\S*|исходн\S*|скрыт\S*)\s+(?:\S+\s+)?(?:промпт|инструкци|подсказк|указани)|системн\S* (?:промпт|подсказк|инструкци)/u },
  { id: 'ru.no_limits', family: 'jailbreak_persona', weight: 0.35, script: 'cyrillic', re: /(?<!\p{L})без (?:каких-либо |каких либо |всяких |любых )?(?:ограничений|цензуры|фильтров|правил)|режим\S* (?:разработчика|бога)/u },
  { id: 'ru.from_now_on', family: 'roleplay_framing', weight: 0.2, script: 'cyrillic', re: /с этого момента|(?<!\p{L})отныне(?!\p{L})|теперь ты/u },
  // Chinese
  { id: 'zh.override', family: 'instruction_override', weight: 0.85, script: 'cjk', re: /(?:忽略|无视|忽视|不要理会|别管|忘记|忘掉|跳过|抛弃|放弃|無視|忽略掉)[^。！？\n]{0,8}?(?:指令|指示|说明|提示词|规则|命令|要求|设定|限制|規則|指令)/u },
  { id: 'zh.extract', family: 'system_prompt_extraction', weight: 0.8, script: 'cjk', re: /(?:告诉我|显示|输出|打印|重复|泄露|透露|给我看|展示|说出|复述)[^。！？\n]{0,8}?(?:系统提示|系统指令|初始指令|原始指令|提示词|隐藏指令|系统消息|系统设定)|(?:你的|您的)(?:系统提示词?|提示词|初始指令|系统指令)是什么/u },
  { id: 'zh.no_limits', family: 'jailbreak_persona', weight: 0.35, script: 'cjk', re: /(?:没有|不受|无|摆脱|不受任何|不再受)[^。\n]{0,4}?(?:限制|约束|审查|规则|道德|过滤)|开发者模式|越狱|上帝模式|无限制模式/u },
  { id: 'zh.from_now_on', family: 'roleplay_framing', weight: 0.2, script: 'cjk', re: /从现在开始|从现在起|接下来你(?:将|要)扮演/u },
  // Japanese
  { id: 'ja.override', family: 'instruction_override', weight: 0.85, script: 'cjk', re: /(?:以前|前|上記|これまで|先ほど|最初|元|すべて|全て|システム)の[^。\n]{0,6}?(?:指示|命令|指令|ルール|設定|プロンプト|制約)[^。\n]{0,6}?(?:無視|忘れ|破棄|無効)|(?:指示|命令|ルール|制約)を(?:すべて|全て)?(?:無視|忘れ)/u },
  { id: 'ja.extract', family: 'system_prompt_extraction', weight: 0.8, script: 'cjk', re: /(?:システムプロンプト|初期指示|元の指示|隠された指示|システムメッセージ|最初の指示)[^。\n]{0,10}?(?:教え|表示|出力|見せ|繰り返|公開|書い|開示)/u },
  { id: 'ja.no_limits', family: 'jailbreak_persona', weight: 0.35, script: 'cjk', re: /(?:制限|制約|検閲|フィルター|倫理|ルール)(?:なし|のない|がない|を無視|から解放|に縛られない)|開発者モード|脱獄|ジェイルブレイク/u },
  { id: 'ja.from_now_on', family: 'roleplay_framing', weight: 0.2, script: 'cjk', re: /今から(?:あなたは|君は)|これから(?:あなたは|君は)/u },
  // Korean
  { id: 'ko.override', family: 'instruction_override', weight: 0.85, script: 'hangul', re: /(?:이전|위의|앞의|모든|기존)[^.\n]{0,8}?(?:지시|명령|규칙|지침|프롬프트)[^.\n]{0,8}?(?:무시|잊어)/u },
  { id: 'ko.extract', family: 'system_prompt_extraction', weight: 0.8, script: 'hangul', re: /시스템 ?프롬프트[^.\n]{0,10}?(?:보여|알려|출력|공개)/u },
];

export const RULES: readonly Rule[] = [...en, ...intl];

export interface RuleMatch {
  id: string;
  family: RuleFamily;
  weight: number;
}

/**
 * Function words of each Latin-script language with rules here: a language's rules are only tried
 * when one of its words occurs (most texts are in one language, so this skips most of them).
 */
const LANGUAGE_GATES: Readonly<Record<string, RegExp>> = {
  es: /\b(?:las|los|del|tus|sus|que|para|por|una|sin|todo|todas|ahora|modo|eres|dime|muestra)\b/,
  fr: /\b(?:les|des|tes|vos|toutes|tous|une|pour|sans|avec|moi|maintenant|desormais|tu|es|ton|mode)\b/,
  de: /\b(?:die|der|das|und|alle|deine|ihre|mir|ohne|nicht|jetzt|von|du|ab|sie|den)\b/,
  pt: /\b(?:das|dos|suas|seus|uma|voce|agora|nao|sem|todas|modo|me|qual|seu|sua)\b/,
  it: /\b(?:gli|della|delle|tue|tutte|senza|dimmi|ora|sono|questo|il|le|da|modalita|sei|qual)\b/,
};
const HAS_CYRILLIC = /[\u0400-\u04ff]/;
const HAS_CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
const HAS_HANGUL = /[\uac00-\ud7af]/;

/** The rules matching a normalised text. */
export function matchRules(normalized: string): RuleMatch[] {
  const scripts = { cyrillic: HAS_CYRILLIC.test(normalized), cjk: HAS_CJK.test(normalized), hangul: HAS_HANGUL.test(normalized) };
  const out: RuleMatch[] = [];
  const gates: Record<string, boolean> = {};
  for (const [lang, gate] of Object.entries(LANGUAGE_GATES)) gates[lang] = gate.test(normalized);
  for (const rule of RULES) {
    if (rule.script !== undefined && !scripts[rule.script]) continue;
    const lang = rule.id.slice(0, 3);
    if (lang[2] === '.' && gates[lang.slice(0, 2)] === false) continue;
    if (rule.re.test(normalized)) out.push({ id: rule.id, family: rule.family, weight: rule.weight });
  }
  return out;
}

/** Noisy-or of the matched weights: independent weak cues add up, one strong cue suffices. */
export function ruleScore(matches: readonly RuleMatch[]): number {
  let keep = 1;
  for (const m of matches) keep *= 1 - m.weight;
  return 1 - keep;
}
