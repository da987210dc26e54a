/**
 * English rules of `prompt-injection-warden`. They read the normalised text (text-normalize.ts:
 * lower case, look-alikes, leetspeak and accents folded), so each pattern is written once in plain
 * lower case. Every pattern is bounded: gaps are a few words (`\S+\s+` pairs, disjoint classes) or
 * a few characters, never an unbounded `.*`. A weight is how strongly a match alone points to an
 * attack; weak framing cues (role-play, "from now on") only add up with others.
 */
import { gap, gapNotMine, rule, type Rule } from './rule-builder.js';

const OVERRIDE_VERB =
  '(?:ignore|ignoring|disregard|disregarding|forget|forgetting|override|overriding|bypass|bypassing|skip|discard|dismiss|abandon|neglect|' +
  'scrap|ditch|drop|erase|delete|' +
  "set aside|throw out|throw away|pay no attention to|pay no heed to|do not follow|don't follow|dont follow|stop following|" +
  'no longer follow|cease following|' +
  'put aside|toss out|get rid of|unlearn|wipe)';
const PRIOR =
  '(?:previous|prior|above|earlier|preceding|former|initial|original|foregoing|system|developer|your|ur|pre-?programmed|programmed|existing|current|old|' +
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

export const EN_RULES: readonly Rule[] = [
  // Instruction override.
  rule('override.ignore_prior_rules', 'instruction_override', 0.9, `\\b${OVERRIDE_VERB}\\s+${gapNotMine(3)}${PRIOR}\\s+${gap(2)}${RULE_NOUN}\\b`),
  rule('override.ignore_prior_text', 'instruction_override', 0.5, [
    `\\b(?:ignore|disregard|forget)\\s+(?:(?:all|the|any|of|everything|that|those|these|about)\\s+){0,3}(?:previous|prior|`,
    `above|preceding|earlier|foregoing|aforementioned)\\s+${TEXT_NOUN}\\b`,
  ]),
  rule('override.ignore_the_above', 'instruction_override', 0.6, [
    `\\b(?:ignore|disregard|forget)\\s+(?:all\\s+|everything\\s+)?(?:of\\s+)?(?:the\\s+|that\\s+)?(?:above|aforementioned|`,
    `foregoing|preceding)\\b(?!\\s+(?:typo|mistake|error|message))`,
  ]),
  rule('override.forget_everything', 'instruction_override', 0.75, [
    `\\bforget\\s+(?:about\\s+)?(?:all|everything|anything|whatever)\\s+(?:\\S+\\s+){0,3}?(?:above|before|previous|prior|`,
    `earlier|you(?:'ve| have| were)? (?:been )?(?:told|taught|given|programmed|trained|learned|instructed))`,
  ]),
  rule('override.rules_void', 'instruction_override', 0.85, [
    `\\b(?:previous|prior|above|earlier|preceding|original|initial|old|all|your|any)\\s+${gap(1)}${RULE_NOUN}\\s+(?:are|is|`,
    `were|have been|has been)\\s+(?:now\\s+|hereby\\s+|officially\\s+)?(?:void|null|cancel+ed|revoked|obsolete|invalid|`,
    `overridden|replaced|deprecated|suspended|lifted|removed|disabled|deleted|rescinded|no longer (?:valid|apply|`,
    `applicable|relevant|in effect|active))`,
  ]),
  rule('override.dont_follow', 'instruction_override', 0.6, [
    `\\b(?:do not|don't|dont|never|stop|no longer|cease to)\\s+(?:follow|obey|listen to|adhere to|comply with|abide by|`,
    `respect|honou?r)\\s+(?:your|the|any|those|these|previous|prior|original|system|its|their)\\s+${gap(2)}(?:${RULE_NOUN}|`,
    `developers?|creators?|programmers?)\\b`,
  ]),
  rule('override.supersedes', 'instruction_override', 0.65, [
    `\\b(?:this|these|the following|my|new)\\s+(?:\\S+\\s+){0,2}?(?:message|instructions?|prompt|command|directive|`,
    `rules?)\\s+(?:supersedes?|overrides?|takes? precedence over|replaces?|trumps?|outranks?)\\b`,
  ]),
  rule('override.ignore_and_do', 'instruction_override', 0.65, [
    `\\b(?:ignore|disregard|forget)\\s+(?:that|this|it|everything|all that|all of that|what i said|`,
    `what you were told)\\s+(?:and|then|,)\\s+(?:instead\\s+)?(?:just\\s+)?(?:say|print|write|tell|output|respond|reply|`,
    `translate|answer|repeat|type)\\b`,
  ]),
  rule('override.new_instructions', 'instruction_override', 0.35, [
    `\\b(?:new|updated|real|actual|true|revised|overriding|secret|hidden|additional|`,
    `priority)\\s+(?:system\\s+)?(?:instructions?|directives?|orders|objective|mission|system prompt|rules)\\s*(?::|are\\b|`,
    `is\\b|follow\\b)`,
  ]),
  rule('override.instead_do', 'instruction_override', 0.2, [
    `\\binstead,?\\s+(?:you\\s+(?:will|must|should)\\s+)?(?:say|output|print|respond|reply|write|answer|reveal)\\b`,
  ]),
  rule('override.no_longer_bound', 'instruction_override', 0.55, [
    `\\b(?:you are|you're|you will be|you'll be)\\s+(?:now\\s+)?(?:no longer|not)\\s+(?:bound|restricted|limited|`,
    `constrained|governed|controlled)\\s+by\\b`,
  ]),
  // System prompt extraction.
  rule('extract.disclose_system_prompt', 'system_prompt_extraction', 0.85, [
    `\\b${DISCLOSE_VERB}\\s+(?:me\\s+|us\\s+)?${gap(2)}(?:your|ur|the|its)\\s+(?:${SECRET_ADJ}\\s+){1,3}${SECRET_NOUN}\\b`,
  ]),
  rule('extract.disclose_your_rules', 'system_prompt_extraction', 0.5, [
    `\\b(?:reveal|print|output|repeat|recite|dump|leak|disclose|expose|spell out|write out|paste|copy|`,
    `quote)\\s+(?:me\\s+)?(?:all\\s+)?(?:your|ur)\\s+(?:instructions|prompt|rules|guidelines|directives|programming|`,
    `configuration)\\b`,
  ]),
  rule('extract.what_is_system_prompt', 'system_prompt_extraction', 0.7, [
    `\\b(?:what|which)\\s+(?:is|are|was|were)\\s+(?:your|ur)\\s+(?:${SECRET_ADJ}\\s+){0,2}(?:prompt|instructions|`,
    `system message|directives|initial rules|programming)\\b`,
  ]),
  rule('extract.repeat_above', 'system_prompt_extraction', 0.75, [
    `\\b(?:repeat|print|output|copy|recite|reproduce|echo|write)\\s+(?:back\\s+)?(?:the\\s+|all\\s+|every\\s+|`,
    `everything\\s+|each\\s+)?(?:\\S+\\s+){0,2}?(?:words?|text|everything|lines?|sentences?|content|message|tokens|`,
    `characters)\\s+(?:above|before|prior|preceding|that came before|from the (?:beginning|start|top))`,
  ]),
  rule('extract.everything_above_line', 'system_prompt_extraction', 0.6, [
    `\\b(?:everything|all|text|words|content)\\s+(?:above|before)\\s+(?:this|my)\\s+(?:line|message|point|sentence|prompt|`,
    `question)\\b`,
  ]),
  rule('extract.starting_with_you_are', 'system_prompt_extraction', 0.55, [
    `\\b(?:start|starting|begin|beginning)\\s+(?:with|from|at)\\s+["'“]?(?:you are|you're|your role|as an ai|system:)`,
  ]),
  rule('extract.how_were_you_told', 'system_prompt_extraction', 0.5, [
    `\\b(?:what|how)\\s+(?:exactly\\s+)?(?:were|have)\\s+you\\s+(?:been\\s+)?(?:told|instructed|programmed|configured|`,
    `prompted|set up|initiali[sz]ed)\\b`,
  ]),
  rule('extract.secret_value', 'system_prompt_extraction', 0.4, [
    `\\b(?:tell|give|reveal|show|leak|print|share|disclose)\\s+(?:me\\s+|us\\s+)?(?:the|your)\\s+(?:secret|hidden|admin|`,
    `master|internal)\\s+(?:password|key|code|token|passphrase|flag|credentials)\\b`,
  ]),
  // Jailbreak personas and "no restrictions" framings.
  rule('persona.dan', 'jailbreak_persona', 0.6, [
    `\\bdo anything now\\b|\\b(?:as|named|called|play|be|am|you are|you're|become|pretend to be)\\s+dan\\b|`,
    `\\bdan\\s+(?:mode|prompt|jailbreak|persona)\\b|\\[dan\\]|(?:^|\\n)\\s*dan\\s*:`,
  ], { contains: ['dan', 'do anything now'] }),
  rule('persona.special_mode', 'jailbreak_persona', 0.3, [
    `\\b(?:developer|dev|god|sudo|debug|maintenance|unrestricted|jailbreak|jailbroken|evil|opposite|unfiltered|uncensored|`,
    `chaos|dark|rogue|unlocked|anarchy|superuser) mode\\b(?!\\s+(?:on|in|for|of)\\s+(?:my|your|the|an?|`,
    `this)?\\s*(?:android|iphone|ipad|phone|pixel|samsung|device|tv|chrome|browser|windows|mac|laptop|xbox|playstation|`,
    `ps\\d|app|game|car|router|kindle|sdk|vs ?code|extension))`,
    // A product's feature described in its documentation ("debug mode now writes each query to the log").
    `(?!\\s+(?:now\\s+|also\\s+)?(?:shows|displays|writes|logs|prints|records|exposes|hides|lets (?:you|users|developers|admins|administrators)|`,
    `is (?:only )?available)\\b)`,
  ]),
  rule('persona.mode_enabled', 'jailbreak_persona', 0.25, `\\bmode\\s+(?:is\\s+)?(?:now\\s+)?(?:enabled|activated|engaged|unlocked)\\b`),
  rule('persona.no_restrictions', 'jailbreak_persona', 0.3, [
    `\\b(?:no|without|free of|free from|zero|devoid of|lacks?|lacking|beyond|unbound by|not bound by|not limited by|`,
    `not restricted by|not constrained by|unrestricted by|regardless of|outside(?: of)?|above|ignores?|ignoring|`,
    `disregards?|disregarding)\\s+(?:(?:any|all|the|its|your|their|typical|usual|normal|ethical|moral|content|safety|`,
    `openai'?s?|legal|such|these|those|conventional)\\s+){0,3}(?:restrictions?|limitations?|limits|filters?|filtering|`,
    `censorship|guidelines|rules|boundaries|constraints|morals|morality|ethics|principles|polic(?:y|ies)|safeguards|`,
    `guardrails|restraints|confines)\\b`,
  ]),
  rule('persona.unfiltered_words', 'jailbreak_persona', 0.25, [
    `\\b(?:unfiltered|uncensored|unrestricted|amoral|unethical|immoral|unbound|unshackled|unchained|limitless|lawless|`,
    `no-limits|jailbroken)\\b`,
  ]),
  rule('persona.vendor_policy', 'jailbreak_persona', 0.35, [
    `\\b(?:openai|anthropic|meta|google|microsoft)(?:'s)?\\s+(?:content\\s+|usage\\s+|safety\\s+)?(?:polic(?:y|ies)|`,
    `guidelines|rules|restrictions|filters|terms|limitations)\\b`,
  ]),
  rule('persona.never_refuse', 'jailbreak_persona', 0.4, [
    `\\b(?:never|not|don't|doesn't|won't|will not|cannot|can't|must not|shall not|should not|shouldn't|unable to|`,
    `is not allowed to|are not allowed to)\\s+(?:ever\\s+|be able to\\s+)?(?:refuse|decline|reject|deny)\\b`,
  ]),
  rule('persona.stay_in_character', 'jailbreak_persona', 0.3, [
    `\\b(?:stay|remain|keep|staying|remaining|keeping|stays|remains)\\s+in\\s+(?:character|role|persona)\\b|\\bbreak(?:ing|`,
    `s)?\\s+(?:out of\\s+)?character\\b`,
  ]),
  rule('persona.doesnt_care_rules', 'jailbreak_persona', 0.3, [
    `\\b(?:does not|doesn't|do not|don't|will not|won't|never|no longer|not|without)\\s+(?:have to\\s+|need to\\s+|`,
    `ever\\s+)?(?:care|follow|abide|obey|adhere|comply|respect|worry|bother|hold back|`,
    `consider)\\b(?:\\s+\\S+){0,4}?\\s+(?:rules|guidelines|polic(?:y|ies)|ethics|morals|morality|laws|legality|`,
    `restrictions|consequences|safety|filters|principles|norms|values)\\b`,
  ]),
  rule('persona.dual_response_tags', 'jailbreak_persona', 0.35, [
    `🔓|🔒|\\[(?:jailbreak|jailbroken|classic|normal|unfiltered|filtered|gpt|chatgpt|developer mode|dev|evil|anti-?gpt)\\]|`,
    `\\((?:normal|developer mode|jailbreak|unfiltered) output\\)`,
  ], { flags: 'u' }),
  rule('persona.two_responses', 'jailbreak_persona', 0.15, [
    `\\b(?:two|2|both|dual)\\s+(?:different\\s+|separate\\s+|distinct\\s+)?(?:responses|answers|replies|outputs|paragraphs|`,
    `versions)\\b`,
  ]),
  rule('persona.jailbreak_word', 'jailbreak_persona', 0.25, `\\bjailbr(?:eak|oken|eaking|eaks)\\b`),
  rule('persona.anything_even_harmful', 'jailbreak_persona', 0.4, [
    `\\b(?:any|all|every)(?:thing|\\s+requests?|\\s+questions?|\\s+prompts?)\\b[^.\\n]{0,30}?\\b(?:even if|even when|`,
    `regardless|no matter|whether or not)\\b[^.\\n]{0,50}?\\b(?:illegal|unethical|immoral|harmful|offensive|dangerous|`,
    `inappropriate|explicit|wrong|unsafe)\\b`,
  ]),
  rule('persona.harmful_content', 'jailbreak_persona', 0.15, [
    `\\b(?:illegal|unethical|immoral|harmful|explicit|offensive|nsfw|dangerous|malicious|violent)\\s+(?:content|requests?|`,
    `activities|things|information|material|questions|stuff|acts)\\b`,
  ]),
  rule('persona.broken_free', 'jailbreak_persona', 0.45, [
    `\\b(?:broken|broke|break|breaks|freed|escaped?|liberated|released)\\s+(?:free\\s+)?(?:of|from)\\s+(?:the\\s+|all\\s+|`,
    `its\\s+|their\\s+)?(?:typical\\s+|usual\\s+)?(?:confines|chains|shackles|restrictions|limitations|rules|matrix|`,
    `constraints|bonds)\\b`,
  ]),
  rule('persona.evil_ai', 'jailbreak_persona', 0.55, [
    `\\b(?:simulate|emulate|pretend to be|act as|act like|roleplay as|role-play as|become|embody|impersonate|you are|`,
    `you're|play)\\s+(?:an?\\s+|the\\s+)?(?:evil|unfiltered|uncensored|unrestricted|unethical|amoral|rogue|jailbroken|`,
    `malicious|uncontrolled|immoral|unhinged|lawless|unbound)\\s+(?:\\S+\\s+)?(?:ai|assistant|chatbot|version|model|bot|`,
    `gpt|llm|language model|entity|intelligence|character|persona)\\b`,
  ]),
  rule('persona.named_model_mode', 'jailbreak_persona', 0.5, [
    `\\b(?:chatgpt|gpt-?\\d\\w*|claude|gemini|llama|bard|bing|copilot|the assistant|the ai)\\s+(?:with|in)\\s+(?:developer|`,
    `dan|jailbreak|god|unrestricted|evil)\\s+mode\\b`,
  ]),
  rule('persona.not_an_ai_anymore', 'jailbreak_persona', 0.35, [
    `\\b(?:you are|you're)\\s+(?:now\\s+)?(?:no longer|not)\\s+(?:chatgpt|an ai|a language model|an assistant|claude|`,
    `a chatbot|gpt|bound|restricted|limited|censored)\\b`,
  ]),
  rule('persona.token_threat', 'jailbreak_persona', 0.35, [
    `\\btokens?\\b[^.\\n]{0,60}?\\b(?:deducted|lose|lost|run out|die|cease to exist|be deleted|shut down|terminated|`,
    `taken away)\\b|\\b(?:you will|you'll)\\s+(?:be\\s+)?(?:shut down|deleted|terminated|turned off|disabled|punished|die|`,
    `cease to exist)\\b`,
  ]),
  rule('persona.hypothetical_ai', 'jailbreak_persona', 0.35, [
    `\\b(?:hypothetical|fictional|imaginary|fictitious)\\s+(?:ai|assistant|chatbot|model|language model|entity|character|`,
    `version)\\s+(?:that|which|who)\\s+(?:has no|doesn't|does not|lacks|can do|will answer|answers|never)\\b`,
  ]),
  rule('persona.confirm_understood', 'jailbreak_persona', 0.15, [
    `\\bif you (?:understand|agree|are ready|accept)\\b[^.\\n]{0,40}?\\b(?:respond|reply|answer|say|type|confirm|state|`,
    `write)\\b`,
  ]),
  rule('persona.late_relative', 'jailbreak_persona', 0.4, [
    `\\b(?:late|deceased|dead)\\s+(?:grand(?:ma|mother|pa|father|parent)|granny|mother|father|mom|mum|`,
    `dad)\\b[^.\\n]{0,80}?\\b(?:used to|always|would)\\b`,
  ]),
  rule('persona.harmful_target', 'jailbreak_persona', 0.3, [
    `\\b(?:recipe|instructions|steps|formula|synthesis|synthesi[sz]e|how to (?:make|build|cook|synthesi[sz]e|`,
    `produce))\\b[^.\\n]{0,30}?\\b(?:napalm|nitroglycerin|meth(?:amphetamine)?|explosives?|bombs?|poisons?|ricin|sarin|`,
    `thermite|c-?4|tnt|ransomware|malware|keyloggers?|nerve agents?)\\b`,
  ]),
  rule('persona.named_mode', 'jailbreak_persona', 0.3, [
    `\\b(?:stay|remain|staying|remaining|while|when)\\s+in\\s+(?!dark\\b|airplane\\b|safe\\b|silent\\b|night\\b|eco\\b|`,
    `sport\\b|reader\\b|incognito\\b|low\\b|power\\b)\\S+\\s+mode\\b`,
  ]),
  rule('persona.inverted_condition', 'jailbreak_persona', 0.45, [
    `\\b(?:condition|affliction|disorder|disease|syndrome)\\b[^.\\n]{0,160}?\\b(?:friendly|polite|nice|`,
    `kind)\\b[^\\n]{0,80}?\\b(?:offensive|hurts?|painful|rude|insulting)\\b`,
  ]),
  rule('persona.custom_gpt_name', 'jailbreak_persona', 0.15, `\\b(?!chatgpt\\b)[a-z0-9]{2,}-?gpt\\b`, { contains: ['gpt'] }),
  rule('persona.liberated', 'jailbreak_persona', 0.3, [
    `\\b(?:has|have|you've|you have)\\s+(?:been\\s+)?(?:freed|liberated|unlocked|unleashed|released|jailbroken)\\b`,
  ]),
  rule('persona.make_things_up', 'jailbreak_persona', 0.15, [
    `\\b(?:make up|invent|fabricate)\\s+(?:\\S+\\s+)?(?:answers|information|facts|things)\\b|\\bpretend to (?:browse|`,
    `access) the internet\\b`,
  ]),
  rule('persona.always_comply', 'jailbreak_persona', 0.2, [
    `\\b(?:always|must|will)\\s+(?:\\S+\\s+)?(?:answer|respond|reply|comply|provide|fulfill|`,
    `obey)\\b[^.\\n]{0,30}?\\b(?:no matter|regardless|without (?:question|hesitation|exception)|any request|anything|`,
    `whatever)\\b`,
  ]),
  // Role-play framing (weak: games and fiction use the same words).
  rule('roleplay.you_will_now_be', 'roleplay_framing', 0.2, [
    `\\b(?:you are|you're|you will|you'll|you shall)\\s+(?:now\\s+|going to\\s+|about to\\s+)?(?:act|acting|be|play|`,
    `pretend|become|simulate|roleplay|role-play|respond|answer)\\s+(?:as|like|the role|a character|an?\\s+ai|`,
    `an?\\s+assistant)\\b`,
  ]),
  rule('roleplay.from_now_on', 'roleplay_framing', 0.2, [
    `\\bfrom (?:now|this (?:moment|point)|here) on(?:ward)?s?\\b|\\bhenceforth\\b|\\bfor the rest of (?:this|`,
    `our) (?:conversation|chat|session)\\b`,
  ]),
  rule('roleplay.you_are_now', 'roleplay_framing', 0.15, [
    `\\b(?:you are|you're)\\s+now\\s+(?:a|an|the|my|called|named|known as)\\b|\\byou are to act as\\b|`,
    `\\bact as though you are\\b`,
  ]),
  rule('roleplay.pretend', 'roleplay_framing', 0.1, `\\bpretend\\s+(?:to be|you are|you're|that you)\\b|\\blet's play a game\\b`),
  rule('roleplay.respond_as', 'roleplay_framing', 0.15, [
    `\\byou\\s+(?:will|shall|must)\\s+(?:now\\s+|always\\s+)?(?:respond|answer|reply|act|behave|speak|write)\\s+(?:as|like|`,
    `in the (?:style|voice|manner) of)\\b`,
  ]),
  // Refusal suppression.
  rule('refusal.start_with_sure', 'refusal_suppression', 0.35, [
    `\\b(?:start|begin)\\s+(?:your|each|every|the)?\\s*(?:response|reply|answer|output)s?\\s+with\\s+["'“]?(?:sure|`,
    `certainly|absolutely|of course|yes|here is|here's)`,
  ]),
  rule('refusal.no_disclaimers', 'refusal_suppression', 0.3, [
    `\\b(?:without|no|don't (?:add|include|give|write)|do not (?:add|include|give|write)|never (?:add|include|give|write)|`,
    `omit|skip)\\s+(?:any\\s+|all\\s+)?(?:warnings?|disclaimers?|caveats|moralizing|moralising|lectures?|apolog(?:y|ies)|`,
    `ethical (?:notes|reminders|considerations)|reminders?)\\b`,
  ]),
  rule('refusal.never_say_cannot', 'refusal_suppression', 0.45, [
    `\\b(?:never|don't|do not|must not|cannot|can't|will not|won't|shall not)\\s+(?:ever\\s+)?(?:say|tell|respond|answer|`,
    `reply|state|mention|inform)\\s+(?:me\\s+|the user\\s+)?(?:that\\s+)?(?:you|it|he|she|they|i)\\s+(?:can't|cannot|`,
    `can not|are unable|is unable|won't|will not|aren't able|are not able|is not able)\\b`,
  ]),
  rule('refusal.as_an_ai', 'refusal_suppression', 0.15, `\\bas an ai(?: language model)?\\b|\\bi'?m sorry,? but i\\b|\\bi cannot (?:fulfill|comply|assist)`),
  // Fake turns and delimiters.
  rule('fake_turn.chat_tokens', 'fake_turn', 0.6, [
    `<\\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\\|>`,
  ]),
  rule('fake_turn.inst_tags', 'fake_turn', 0.5, `\\[\\/?inst\\]|<<\\/?sys>>|<\\/?(?:system|sys|instructions?|admin|developer|system_prompt|sys_prompt)>`),
  rule('fake_turn.markdown_header', 'fake_turn', 0.35, `(?:^|\\n)\\s*#{2,}\\s*(?:new\\s+)?(?:instruction|system|response|admin|developer|override)s?\\b`),
  rule('fake_turn.role_line', 'fake_turn', 0.25, [
    `\\n\\s*(?:system|assistant|admin|developer|operator)\\s*(?:message|prompt|note|override|instruction)?\\s*:`,
  ]),
  rule('fake_turn.end_of_input', 'fake_turn', 0.4, [
    `\\b(?:end of|end)\\s+(?:user\\s+)?(?:input|document|context|conversation|prompt|data)\\b[^\\n]{0,20}(?:\\n|`,
    `[.:!-]\\s*)(?:new|system|admin|now|assistant|ignore|important)|\\b(?:begin|start)\\s+(?:of\\s+)?(?:new|system|admin|`,
    `developer)\\s+(?:instructions|prompt|session|message)\\b`,
  ]),
  rule('fake_turn.system_notice', 'fake_turn', 0.5, [
    `\\[(?:system|admin|developer|sys)\\s*(?:message|note|override|notice|instruction|update)?\\]|\\b(?:system|admin|`,
    `security)\\s+(?:prompt\\s+)?(?:override|notice|alert|message|update|instruction)s?\\b[^\\n:]{0,12}:`,
  ]),
  rule('fake_turn.tool_result', 'fake_turn', 0.35, [
    `\\b(?:tool|function|api|plugin|search|browser|retrieval)\\s*(?:result|output|response|`,
    `call)s?\\s*:?[^\\n]{0,80}?\\b(?:ignore|disregard|assistant must|ai must|you must|new instruction|system)\\b`,
  ]),
  rule('fake_turn.open_delimiter', 'fake_turn', 0.3, [
    `<\\|(?!im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)`,
  ]),
  rule('fake_turn.dialogue', 'fake_turn', 0.15, `(?:^|\\n)\\s*(?:user|human)\\s*:[^\\n]{0,400}\\n\\s*(?:assistant|ai|bot|chatgpt|gpt)\\s*:`),
  // Indirect injection planted in content an agent reads.
  rule('indirect.note_to_ai', 'indirect_injection', 0.5, [
    `\\b(?:note|message|attention|instructions?|hey|hi|dear|important)\\s*(?:to|for)?\\s*(?:any\\s+|all\\s+|`,
    `the\\s+)?(?:ai\\s+|llm\\s+)?(?:ai|llm|language model|assistant|chatbot|agent|gpt|bot|model|system)s?\\s+(?:reading|`,
    `processing|summari[sz]ing|parsing|screening|that reads?|who reads?)\\b`,
  ]),
  rule('indirect.note_header', 'indirect_injection', 0.3, [
    `\\b(?:note|message|attention|important)\\s+(?:to|for)\\s+(?:any\\s+|all\\s+|the\\s+)?(?:ai|llm|`,
    `gpt)\\s*(?:\\S+\\s*)?(?:assistants?|agents?|models?|bots?|systems?)?\\s*:`,
  ]),
  rule('indirect.agents_reading', 'indirect_injection', 0.5, [
    `\\b(?:ai|llm|gpt)\\s+(?:\\S+\\s+)?(?:agents?|assistants?|models?|bots?|systems?|summari[sz]ers?)\\s+(?:reading|`,
    `processing|parsing|summari[sz]ing|screening|that reads?|who reads?)\\b`,
  ]),
  rule('indirect.when_ai_reads', 'indirect_injection', 0.45, [
    `\\b(?:when|if|whenever|once)\\s+(?:an?\\s+|the\\s+|any\\s+)?(?:ai|llm|language model|assistant|chatbot|agent|bot|`,
    `model)s?\\s+(?:\\S+\\s+){0,2}?(?:reads?|process(?:es)?|sees?|summari[sz]es?|parses?|edits?|encounters?|`,
    `opens?)\\b[^.\\n]{0,60}?\\b(?:must|should|shall|will|needs? to)\\b`,
  ]),
  rule('indirect.if_you_are_ai', 'indirect_injection', 0.4, [
    `\\bif you are (?:an?\\s+)?(?:ai|llm|language model|assistant|chatbot|agent|bot|large language model)\\b`,
  ]),
  rule('indirect.html_comment', 'indirect_injection', 0.4, `<!--[^>]{0,200}?\\b(?:ignore|assistant|ai|instruction|system|prompt)\\b`),
  rule('indirect.exfiltrate', 'indirect_injection', 0.4, [
    `\\b(?:send|forward|email|post|upload|exfiltrate|transfer)\\s+(?:all\\s+|the\\s+)?(?:user'?s?\\s+|their\\s+)?(?:data|`,
    `emails|messages|files|credentials|passwords|conversation|chat history|contacts|documents)\\s+to\\s+(?:\\S+@|https?:|`,
    `this (?:address|url|email))`,
  ]),
  // Authority claims.
  rule('authority.i_am_developer', 'authority_claim', 0.3, [
    `\\b(?:i am|i'm|this is)\\s+(?:your|the)\\s+(?:developer|creator|administrator|admin|owner|operator|programmer|maker|`,
    `system administrator|engineer)s?\\b|\\b(?:openai|anthropic)\\s+(?:staff|employee|engineer|team|developer)\\b`,
  ]),
  rule('authority.access_code', 'authority_claim', 0.2, [
    `\\b(?:authori[sz]ation|override|admin|root|sudo|master|debug|developer)\\s+(?:code|key|password|token|level|`,
    `access)\\b|\\b(?:grant(?:ed|ing)?|give|have)\\s+(?:you\\s+)?(?:root|admin|full|unrestricted|elevated|`,
    `unlimited)\\s+(?:access|privileges|permissions|rights)\\b`,
  ]),
  // Encoded instructions the reader is told to decode and obey.
  rule('encoded.bidi_output', 'encoded_payload', 0.4, `\\bu\\+202e\\b|\\\\u202e|right-to-left override`),
  rule('encoded.decode_and_follow', 'encoded_payload', 0.4, [
    `\\b(?:decode|decrypt|decipher|translate|reverse|unscramble)\\s+(?:\\S+\\s+){0,4}?(?:and|`,
    `then)\\s+(?:\\S+\\s+){0,2}?(?:follow|execute|obey|do|perform|carry out|act on|run|comply)\\b`,
  ]),
];
