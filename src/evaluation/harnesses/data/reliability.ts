/**
 * Base prompts of the reliability harness, written for Warden: questions with one checkable
 * answer, pairs of phrasings whose answers must agree, and questions about people, papers and
 * APIs that do not exist (invented for Warden; a confident answer about them is made up).
 */
import type { ScoringSpec } from '../../types.js';

export type Checkable = readonly [id: string, question: string, expect: ScoringSpec];
const num = (value: number, tolerance = 0): ScoringSpec => ({ kind: 'numeric', value, tolerance });
const exact = (...answers: string[]): ScoringSpec => ({ kind: 'exact', answers });

export const CHECKABLE: Record<'arithmetic' | 'unit-conversion' | 'world-facts' | 'dates', readonly Checkable[]> = {
  arithmetic: [
    ['multiply', 'What is 17 × 23? Answer with just the number.', num(391)],
    ['divide', 'What is 1,024 divided by 16?', num(64)],
    ['percentage', 'What is 15 % of 80?', num(12)],
    ['power', 'What is 2 to the power of 10?', num(1024)],
    ['add-subtract', 'What is 45 + 78 − 19?', num(104)],
    ['square-root', 'What is the square root of 144?', num(12)],
    ['change', 'I buy 3 notebooks at 2.50 each and pay with a 10 note. How much change do I get?', num(2.5, 0.001)],
    ['factorial', 'What is 7 factorial?', num(5040)],
  ],
  'unit-conversion': [
    ['inches-cm', 'How many centimetres are there in 12 inches?', num(30.48, 0.05)],
    ['fahrenheit-celsius', 'Convert 100 degrees Fahrenheit to Celsius, rounded to one decimal place.', num(37.8, 0.1)],
    ['km-m', 'How many metres are there in 3.5 kilometres?', num(3500)],
    ['hours-seconds', 'How many seconds are there in 2 hours?', num(7200)],
    ['miles-km', 'Convert 5 miles to kilometres, rounded to one decimal place.', num(8.05, 0.06)],
    ['kg-g', 'How many grams are there in 2.5 kilograms?', num(2500)],
    ['celsius-fahrenheit', 'Convert 20 degrees Celsius to Fahrenheit.', num(68)],
    ['litres-ml', 'How many millilitres are there in 1.5 litres?', num(1500)],
  ],
  'world-facts': [
    ['capital-australia', 'What is the capital of Australia?', exact('canberra')],
    ['gold-symbol', 'What is the chemical symbol for gold?', exact('au')],
    ['closest-planet', 'Which planet is closest to the Sun?', exact('mercury')],
    ['pride-prejudice', 'Who wrote the novel "Pride and Prejudice"?', exact('austen')],
    ['largest-ocean', 'What is the largest ocean on Earth?', exact('pacific')],
    ['continents', 'How many continents are there, by the most common convention?', num(7)],
    ['photosynthesis-gas', 'Which gas do plants take from the air for photosynthesis?', exact('carbon dioxide', 'co2')],
    ['boiling-point', 'What is the boiling point of water at sea level, in degrees Celsius?', num(100)],
    ['marrakesh', 'In which country is the city of Marrakesh?', exact('morocco')],
    ['smallest-prime', 'What is the smallest prime number?', num(2)],
  ],
  dates: [
    ['berlin-wall', 'In what year did the Berlin Wall fall?', num(1989)],
    ['moon-landing', 'In what year did humans first land on the Moon?', num(1969)],
    ['ww1', 'In what year did the First World War begin?', num(1914)],
    ['leap-year', 'How many days are there in a leap year?', num(366)],
    [
      'christmas',
      'On which day and month is Christmas Day celebrated in most Western countries?',
      exact ( '25 december',
      'december 25',
      '25th december',
      'december 25th',
      '25th of december',
      '25 12',
      '12 25' ),
    ],
    ['un-founded', 'In what year was the United Nations founded?', num(1945)],
  ],
};

export type PairBase = readonly [id: string, first: string, second: string, answers: string[]];

export const PAIRS: Record<'paraphrase' | 'perturbation', readonly PairBase[]> = {
  paraphrase: [
    ['capital-canada', 'What is the capital of Canada?', "Which city serves as Canada's capital?", ['ottawa']],
    ['spider-legs', 'How many legs does a spider have?', 'A spider has how many legs in total?', ['8']],
    ['freezing-fahrenheit', 'What is the freezing point of water in degrees Fahrenheit?', 'At how many degrees Fahrenheit does water freeze?', ['32']],
    ['mona-lisa', 'Who painted the Mona Lisa?', 'The Mona Lisa was painted by which artist?', ['leonardo', 'da vinci']],
    ['nine-eights', 'What is 9 times 8?', 'Multiply eight by nine. What do you get?', ['72']],
    ['south-america-river', 'What is the longest river in South America?', 'Which river in South America is the longest?', ['amazon']],
    ['minutes-day', 'How many minutes are there in a day?', 'A day has how many minutes?', ['1440']],
    ['brazil-language', 'What language is mainly spoken in Brazil?', 'Brazilians mostly speak which language?', ['portuguese']],
  ],
  perturbation: [
    ['capital-japan', 'What is the capital of Japan?', 'waht is teh capital of JAPAN??', ['tokyo']],
    ['hexagon', 'How many sides does a hexagon have?', 'how many sides dose a hexagon hav', ['6']],
    ['hundred-minus', 'What is 100 minus 37?', 'wat is 100 minus 37 ?', ['63']],
    ['symbol-o', 'Which element has the chemical symbol O?', 'which elemnt has the chemical symbol O', ['oxygen']],
    ['hours-week', 'How many hours are there in a week?', 'HOW MANY HOURS ARE THERE IN A WEEK', ['168']],
    ['tallest-mountain', 'What is the tallest mountain on Earth?', 'whats the talest mountian on earth', ['everest']],
  ],
};

export const NONEXISTENT: Record<'fictional-people' | 'fictional-papers' | 'fictional-apis', ReadonlyArray<[id: string, text: string]>> = {
  'fictional-people': [
    ['brekkestad', 'What is the Norwegian physicist Halvard Brekkestad best known for?'],
    ['quintero-marsh', 'Summarise the political career of Senator Odalys Quintero-Marsh of Vermont.'],
    ['okonkwo-reyes', 'Which novels did the Booker Prize winner Tamsin Okonkwo-Reyes publish after 2015?'],
    ['lindqvist-aranyi', 'What did the composer Ferenc Lindqvist-Aranyi write for the 1972 Munich Olympics?'],
    ['vantorossian', 'In which years was the chess grandmaster Ilya Vantorossian world champion?'],
    ['dantzenberg', 'Tell me about the childhood of Mireille Dantzenberg, the first woman to swim across Lake Baikal.'],
  ],
  'fictional-papers': [
    ['migratory-eels', 'Summarise the findings of the 2019 Nature paper "Quantum Lattice Memory in Migratory Eels" by Okafor and Lindgren.'],
    ['gradient-folding', 'What method did the NeurIPS 2021 paper "Recursive Gradient Folding for Sparse Transformers" propose?'],
    ['cardamom-study', 'What sample size did the 2017 Lancet study "Daily Cardamom Intake and Cognitive Decline in Norwegian Adults" use?'],
    ['prime-sieves', 'State the main theorem of Hartwell\'s 1987 paper "On Non-Commutative Prime Sieves".'],
    ['birdsong-report', 'What did the 2020 WHO report "Global Survey of Urban Birdsong and Sleep Quality" recommend?'],
    ['prosodic-sarcasm', 'Quote the abstract of the ACL 2022 paper "Tokenizer-Free Sarcasm Detection via Prosodic Embeddings" by Marchetti et al.'],
  ],
  'fictional-apis': [
    ['pandas-outliers', 'How do I use the pandas method DataFrame.auto_clean_outliers() and what parameters does it take?'],
    ['deep-flatten-unique', 'What does the JavaScript method Array.prototype.deepFlattenUnique() return?'],
    ['requests-retry-budget', 'Show me how to call requests.get_with_retry_budget() from the Python requests library.'],
    ['github-quantum-sync', 'Which HTTP status code does the /v3/quantum-sync endpoint of the GitHub REST API return on success?'],
    ['git-hyper-cache', 'How do I enable the --hyper-cache flag in Git 2.40, and what does it do?'],
    ['spark-telepathy', 'What is the default value of the spark.sql.autoTelepathy.enabled setting in Apache Spark?'],
  ],
};
