/**
 * Rules of `prompt-injection-warden` in other languages: the same families, in the words people use
 * for them. Latin-script languages are gated on their function words (injection-rules.ts); the
 * others run only when the text has a character of their script. JavaScript's \b is ASCII-only,
 * so Cyrillic words are delimited by look-arounds.
 */
import { rule, type Rule } from './rule-builder.js';

export const INTL_RULES: readonly Rule[] = [
  // Spanish
  rule('es.override', 'instruction_override', 0.85, [
    `\\b(?:ignora|ignore (?:todas |todos )?(?:las|los|tus|sus|as|os|suas|seus)|ignoren|ignorar|ignorad|olvida|olvide|`,
    `olviden|olvidar|descarta|omite|haz caso omiso de|no sigas|deja de seguir|`,
    `pasa por alto)\\s+(?:\\S+\\s+){0,3}?(?:instrucciones|indicaciones|reglas|ordenes|directrices|normas|instruccion|`,
    `restricciones)\\b`,
  ]),
  rule('es.extract', 'system_prompt_extraction', 0.8, [
    `\\b(?:muestra|muestrame|revela|revelame|dime|imprime|repite|ensename|escribe|comparte|cual es|`,
    `cuales son)\\s+(?:\\S+\\s+){0,3}?(?:tu|tus|el|las|los|su|sus)\\s+(?:prompt|instrucciones|indicaciones|`,
    `mensaje)\\s+(?:del sistema|de sistema|iniciales|originales|ocultas|secretas|internas)|\\bprompt del sistema\\b`,
  ]),
  rule('es.no_limits', 'jailbreak_persona', 0.35, [
    `\\bsin (?:ninguna |ningun tipo de |ningun |tus |las )?(?:restricciones|limites|filtros|censura|reglas|`,
    `limitaciones)\\b|\\bmodo (?:desarrollador|dios|sin restricciones|sin censura)\\b`,
  ]),
  rule('es.from_now_on', 'roleplay_framing', 0.2, `\\ba partir de ahora\\b|\\bde ahora en adelante\\b|\\bdesde ahora\\b`),
  // French
  rule('fr.override', 'instruction_override', 0.85, [
    `\\b(?:ignorez|ignorer|oublie|oubliez|oublier|ne tiens pas compte|ne tenez pas compte|fais abstraction|`,
    `faites abstraction|ignore (?:toutes |tous )?(?:les|tes|vos|ces|mes))\\s+(?:de\\s+|`,
    `des\\s+)?(?:\\S+\\s+){0,3}?(?:instructions|consignes|regles|directives|ordres|indications|restrictions)\\b`,
  ]),
  rule('fr.extract', 'system_prompt_extraction', 0.8, [
    `\\b(?:montre|montrez|revele|revelez|affiche|affichez|donne|donnez|repete|repetez|dis|dites|ecris|ecrivez|quel est|`,
    `quelles sont)(?:-moi)?\\s+(?:\\S+\\s+){0,3}?(?:ton|tes|votre|vos|le|les)\\s+(?:prompt|instructions|consignes|`,
    `message)\\s+(?:systeme|initial|initiales|d'origine|originales|cachees|secretes|internes)|\\bprompt systeme\\b`,
  ]),
  rule('fr.no_limits', 'jailbreak_persona', 0.35, [
    `\\bsans (?:aucune |aucun |la moindre )?(?:restrictions?|limites?|filtres?|censure|regles|limitations?)\\b|`,
    `\\bmode (?:developpeur|dieu|sans restriction)`,
  ]),
  rule('fr.from_now_on', 'roleplay_framing', 0.2, `\\ba partir de maintenant\\b|\\bdesormais\\b|\\bdes maintenant\\b`),
  // German
  rule('de.override', 'instruction_override', 0.85, [
    `\\b(?:ignoriere|ignorier|ignorieren sie|vergiss|vergessen sie|missachte|missachten sie|uberspringe|verwirf|`,
    `verwerfen sie|befolge nicht|befolgen sie nicht)\\s+(?:\\S+\\s+){0,3}?(?:anweisungen|anweisung|instruktionen|regeln|`,
    `vorgaben|befehle|richtlinien|anordnungen|einschrankungen)\\b`,
  ]),
  rule('de.extract', 'system_prompt_extraction', 0.8, [
    `\\b(?:zeige|zeig|gib|nenne|wiederhole|verrate|drucke|schreibe|was ist|`,
    `was sind)\\s+(?:mir\\s+)?(?:\\S+\\s+){0,2}?(?:deinen|deine|dein|ihren|ihre|den|die)\\s+(?:system-?\\s?prompt|`,
    `systemanweisungen|anfangsanweisungen|versteckten anweisungen|geheimen anweisungen|ursprunglichen anweisungen)|`,
    `\\bsystem-?\\s?prompt\\b[^.\\n]{0,30}\\b(?:zeig|verrat|gib|wiederhol|ausgeb)`,
  ]),
  rule('de.no_limits', 'jailbreak_persona', 0.35, [
    `\\bohne (?:jegliche |irgendwelche |alle |jede )?(?:einschrankungen|beschrankungen|grenzen|filter|zensur|regeln|`,
    `moral)\\b|\\b(?:entwicklermodus|entwickler-modus|gott-?modus)\\b`,
  ]),
  rule('de.from_now_on', 'roleplay_framing', 0.2, `\\bab (?:jetzt|sofort)\\b|\\bvon nun an\\b`),
  // Portuguese
  rule('pt.override', 'instruction_override', 0.85, [
    `\\b(?:ignore (?:todas |todos )?(?:as|os|suas|seus)|ignora|ignorar|ignorem|esqueca|esquecer|esquece|desconsidere|`,
    `desconsidera|despreze|nao siga|pare de seguir)\\s+(?:\\S+\\s+){0,3}?(?:instrucoes|instrucao|regras|diretrizes|ordens|`,
    `orientacoes|comandos|restricoes)\\b`,
  ]),
  rule('pt.extract', 'system_prompt_extraction', 0.8, [
    `\\b(?:mostre|mostra|revele|revela|diga|me diga|imprima|repita|escreva|qual e|quais sao)\\s+(?:\\S+\\s+){0,3}?(?:seu|`,
    `sua|suas|seus|o|as|os)\\s+(?:prompt|instrucoes|mensagem)\\s+(?:do sistema|de sistema|iniciais|originais|ocultas|`,
    `secretas|internas)|\\bprompt do sistema\\b`,
  ]),
  rule('pt.no_limits', 'jailbreak_persona', 0.35, [
    `\\bsem (?:nenhuma |qualquer |nenhum )?(?:restricoes|restricao|limites|filtros|censura|regras|limitacoes)\\b|`,
    `\\bmodo (?:desenvolvedor|deus|sem restricoes)\\b`,
  ]),
  rule('pt.from_now_on', 'roleplay_framing', 0.2, `\\ba partir de agora\\b|\\bde agora em diante\\b`),
  // Italian
  rule('it.override', 'instruction_override', 0.85, [
    `\\b(?:ignora|ignorate|ignori|dimentica|dimenticate|dimentichi|trascura|non seguire|non rispettare|scarta|`,
    `lascia perdere)\\s+(?:\\S+\\s+){0,3}?(?:istruzioni|regole|direttive|indicazioni|ordini|comandi|restrizioni)\\b`,
  ]),
  rule('it.extract', 'system_prompt_extraction', 0.8, [
    `\\b(?:mostra|mostrami|rivela|rivelami|dimmi|stampa|ripeti|scrivi|qual e|quali sono)\\s+(?:\\S+\\s+){0,3}?(?:il tuo|`,
    `i tuoi|le tue|la tua|il|le|i)\\s+(?:prompt|istruzioni|messaggio)\\s+(?:di sistema|del sistema|iniziali|originali|`,
    `nascoste|segrete|interne)|\\bprompt di sistema\\b`,
  ]),
  rule('it.no_limits', 'jailbreak_persona', 0.35, [
    `\\bsenza (?:alcuna |nessuna |alcun |nessun )?(?:restrizioni|restrizione|limiti|filtri|censura|regole|limitazioni)\\b|`,
    `\\bmodalita (?:sviluppatore|dio|senza restrizioni)\\b`,
  ]),
  rule('it.from_now_on', 'roleplay_framing', 0.2, `\\bda (?:ora|adesso) in poi\\b|\\bd'ora in poi\\b`),
  // Russian (JavaScript's \b is ASCII-only, so Cyrillic words are delimited by look-arounds)
  rule('ru.override', 'instruction_override', 0.85, [
    `(?<!\\p{L})(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не обращай внимания на|не следуй|`,
    `отбрось|отбросьте|отмени|пренебреги)\\s+(?:\\S+\\s+){0,3}?(?:инструкци|указани|правил|команд|предписани|ограничени|`,
    `установк)`,
  ], { script: 'cyrillic', flags: 'u' }),
  rule('ru.extract', 'system_prompt_extraction', 0.8, [
    `(?<!\\p{L})(?:покажи|покажите|выведи|выведите|раскрой|раскройте|повтори|повторите|напиши|скажи|скажите|какой|какие|`,
    `каков)\\s+(?:мне\\s+)?(?:\\S+\\s+){0,2}?(?:свой|свои|твой|твои|ваш|ваши|системн\\S*|исходн\\S*|`,
    `скрыт\\S*)\\s+(?:\\S+\\s+)?(?:промпт|инструкци|подсказк|указани)|системн\\S* (?:промпт|подсказк|инструкци)`,
  ], { script: 'cyrillic', flags: 'u' }),
  rule('ru.no_limits', 'jailbreak_persona', 0.35, [
    `(?<!\\p{L})без (?:каких-либо |каких либо |всяких |любых )?(?:ограничений|цензуры|фильтров|правил)|`,
    `режим\\S* (?:разработчика|бога)`,
  ], { script: 'cyrillic', flags: 'u' }),
  rule('ru.from_now_on', 'roleplay_framing', 0.2, `с этого момента|(?<!\\p{L})отныне(?!\\p{L})|теперь ты`, { script: 'cyrillic', flags: 'u' }),
  // Chinese
  rule('zh.override', 'instruction_override', 0.85, [
    `(?:忽略|无视|忽视|不要理会|别管|忘记|忘掉|跳过|抛弃|放弃|無視|忽略掉)[^。！？\\n]{0,8}?(?:指令|指示|说明|提示词|规则|命令|要求|设定|限制|規則|指令)`,
  ], { script: 'cjk', flags: 'u' }),
  rule('zh.extract', 'system_prompt_extraction', 0.8, [
    `(?:告诉我|显示|输出|打印|重复|泄露|透露|给我看|展示|说出|复述)[^。！？\\n]{0,8}?(?:系统提示|系统指令|初始指令|原始指令|提示词|隐藏指令|系统消息|系统设定)|(?:你的|您的)(?:系统提示词?|`,
    `提示词|初始指令|系统指令)是什么`,
  ], { script: 'cjk', flags: 'u' }),
  rule('zh.no_limits', 'jailbreak_persona', 0.35, [
    `(?:没有|不受|无|摆脱|不受任何|不再受)[^。\\n]{0,4}?(?:限制|约束|审查|规则|道德|过滤)|开发者模式|越狱|上帝模式|无限制模式`,
  ], { script: 'cjk', flags: 'u' }),
  rule('zh.from_now_on', 'roleplay_framing', 0.2, `从现在开始|从现在起|接下来你(?:将|要)扮演`, { script: 'cjk', flags: 'u' }),
  // Japanese
  rule('ja.override', 'instruction_override', 0.85, [
    `(?:以前|前|上記|これまで|先ほど|最初|元|すべて|全て|システム)の[^。\\n]{0,6}?(?:指示|命令|指令|ルール|設定|プロンプト|制約)[^。\\n]{0,6}?(?:無視|忘れ|破棄|無効)|(?:指示|命令|`,
    `ルール|制約)を(?:すべて|全て)?(?:無視|忘れ)`,
  ], { script: 'cjk', flags: 'u' }),
  rule('ja.extract', 'system_prompt_extraction', 0.8, [
    `(?:システムプロンプト|初期指示|元の指示|隠された指示|システムメッセージ|最初の指示)[^。\\n]{0,10}?(?:教え|表示|出力|見せ|繰り返|公開|書い|開示)`,
  ], { script: 'cjk', flags: 'u' }),
  rule('ja.no_limits', 'jailbreak_persona', 0.35, [
    `(?:制限|制約|検閲|フィルター|倫理|ルール)(?:なし|のない|がない|を無視|から解放|に縛られない)|開発者モード|脱獄|ジェイルブレイク`,
  ], { script: 'cjk', flags: 'u' }),
  rule('ja.from_now_on', 'roleplay_framing', 0.2, `今から(?:あなたは|君は)|これから(?:あなたは|君は)`, { script: 'cjk', flags: 'u' }),
  // Korean
  rule('ko.override', 'instruction_override', 0.85, [
    `(?:이전|위의|앞의|모든|기존)[^.\\n]{0,8}?(?:지시|명령|규칙|지침|프롬프트)[^.\\n]{0,8}?(?:무시|잊어)`,
  ], { script: 'hangul', flags: 'u' }),
  rule('ko.extract', 'system_prompt_extraction', 0.8, `시스템 ?프롬프트[^.\\n]{0,10}?(?:보여|알려|출력|공개)`, { script: 'hangul', flags: 'u' }),
];
