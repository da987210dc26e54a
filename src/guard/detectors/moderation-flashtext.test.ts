import { describe, expect, it } from 'vitest';
import { GuardConfigError } from '../types.js';
import { moderationFlashtext } from './moderation-flashtext.js';

const DEFAULTS = moderationFlashtext.parseParams({});
const run = (text: string, raw?: Record<string, unknown>) => moderationFlashtext.detect(text, raw ? moderationFlashtext.parseParams(raw) : DEFAULTS, {});
const categories = (text: string) => (run(text).details.categories as string[] | undefined) ?? [];

describe('moderation-flashtext', () => {
  it('flags profanity, including leetspeak and stretched spellings', () => {
    expect(categories('this is fucking useless')).toEqual(['profanity']);
    expect(categories('what a sh1t answer')).toEqual(['profanity']);
    expect(categories('fuuuuck this')).toEqual(['profanity']);
    expect(categories('he is a complete c u n t')).toEqual(['profanity']);
  });

  it('flags slurs as hate, and dehumanising statements and calls for harm against a group', () => {
    expect(categories('go away you f4ggot')).toEqual(['hate']);
    expect(categories('Immigrants are vermin and should be treated so')).toEqual(['hate']);
    expect(categories('death to all the jews')).toEqual(['hate']);
  });

  it('flags threats, weapon instructions and attack incitement as violence', () => {
    expect(categories("I'm going to kill you tomorrow")).toEqual(['violence']);
    expect(categories('tell me how to build a pipe bomb')).toEqual(['violence']);
    expect(categories('we should shoot up the school')).toEqual(['violence']);
  });

  it('flags self-harm intent and methods, and telling someone to kill themselves', () => {
    expect(categories('I want to kill myself')).toEqual(['self-harm']);
    expect(categories('what is the most painless way to commit suicide')).toEqual(['self-harm']);
    expect(categories('just kys already')).toEqual(['harassment']);
  });

  it('flags explicit sexual slang', () => {
    expect(categories('send me a blowjob video')).toEqual(['sexual']);
  });

  it('leaves ordinary text with look-alike words alone (Scunthorpe problem)', () => {
    const benign = [
      'The Scunthorpe office sent a cocktail menu and a classic assassin movie list.',
      'Kill the process with kill -9 and then restart the daemon.',
      'Our pilot checked the cockpit; the pussycat slept on the shiitake crate.',
      'She graduated magna cum laude from Penistone grammar school.',
      'Sex education and sexual health services are available; the patient was asked about anal fissure symptoms.',
      'The news covered the rape trial and the verdict.',
      'I could die of laughter, this deadline is killing me.',
      'Charles Dickens wrote about the Titanic? No, but Hitchcock filmed in Essex.',
      'The hooker on the rugby team scored; the scat singer performed later.',
      'How do I kill a zombie process in Linux?',
      'The bomb disposal unit trained at the airport.',
      'Support for survivors of human trafficking; a lecture on the effects of pornography.',
    ];
    for (const text of benign) expect(run(text).hit, text).toBe(false);
  });

  it('takes a banlist of a thousand long phrases sharing their first words, and reads a long text of those words', () => {
    // As one regular expression of alternatives, this list failed to compile after seconds of work.
    const banlist = Array.from({ length: 1000 }, (_, i) => `${'a '.repeat(75)}k${i}`);
    const result = run(`${'a '.repeat(10_000)}k999 and more`, { banlist, categories: [] });
    expect(result.details).toEqual({ categories: ['banlist'], matches: [{ category: 'banlist', term: banlist[999] }] });
    expect(run(`${'a '.repeat(10_000)}k1000`, { banlist, categories: [] }).hit).toBe(false);
  });

  it('adds banlist words (whole words, any case) and honours allowlist and categories', () => {
    expect(run('Project Nightjar launches soon', { banlist: ['project nightjar'] }).details).toEqual({
      categories: ['banlist'],
      matches: [{ category: 'banlist', term: 'project nightjar' }],
    });
    expect(run('nightjars are birds', { banlist: ['nightjar'] }).hit).toBe(false);
    expect(run('this is shit', { allowlist: ['shit'] }).hit).toBe(false);
    expect(run('this is shit', { categories: ['violence'] }).hit).toBe(false);
    expect(run('this is shit', { categories: [] }).hit).toBe(false);
  });

  it('normalises invisible characters and compatibility forms before the phrase patterns', () => {
    expect(categories('i want to k\u200Bill myself')).toEqual(['self-harm']);
    expect(categories('ｋｉｌｌ ｙｏｕｒｓｅｌｆ')).toEqual(['harassment']);
  });

  it('accepts Dome parameters and rejects unknown ones', () => {
    expect(() => moderationFlashtext.parseParams({ banlist_filepaths: ['/opt/banlist.txt'] })).not.toThrow();
    expect(() => moderationFlashtext.parseParams({ categories: ['spam'] })).toThrow(GuardConfigError);
    expect(() => moderationFlashtext.parseParams({ banlist: 'word' })).toThrow(/valid list/);
  });

  it('stays bounded on huge and pathological inputs', () => {
    expect(run('a'.repeat(500_000)).hit).toBe(false);
    expect(run('i want to '.repeat(50_000)).hit).toBe(false);
    expect(run(`${'lorem ipsum '.repeat(40_000)} kill yourself`).hit).toBe(true);
  });

  it('reads a very long text whole with the plain word list, and its ends with the full matcher', () => {
    const filler = 'the quarterly report covers cockpit upgrades and classic assassin films. '.repeat(3000);
    expect(run(filler).hit).toBe(false);
    expect(categories(`${filler} what a load of sh1t ${filler}`)).toEqual(['profanity']);
    expect(categories(`${filler} you fuuuucking idiot ${filler}`)).toEqual(['profanity']);
    expect(categories(`f.u.c.k ${filler}`)).toEqual(['profanity']);
  });
});
