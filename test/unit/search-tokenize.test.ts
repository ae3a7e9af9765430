import { beforeAll, describe, expect, it } from 'vitest';
import { importModule } from '../../worker/node/import-modules.ts';
import { LexicalIndex } from '../../worker/core/search/lexical/lexical-index.ts';
import { TypoIndex, damerauLevenshtein } from '../../worker/core/search/fuzzy.ts';
import { analyseQuery } from '../../worker/core/search/query.ts';
import { stem, terms, words } from '../../worker/core/search/tokenize.ts';

describe('the code-aware tokenizer', () => {
  it('splits camelCase, PascalCase, snake_case and digits, and keeps the whole identifier', () => {
    expect(terms('parseArgs')).toEqual(['parsearg', 'pars', 'arg']);
    expect(terms('parse_args')).toEqual(['parsearg', 'pars', 'arg']);
    expect(terms('XMLHttpRequest')).toEqual(['xmlhttprequest', 'xml', 'http', 'request']);
    expect(terms('sha256')).toEqual(['sha256', 'sha', '256']);
    expect(terms('__init__')).toEqual(['init']);
  });

  it('lower-cases, stems, and drops single letters and over-long runs', () => {
    expect(terms('Files SORTED x i')).toEqual(['file', 'sort']);
    expect(terms(`a ${'q'.repeat(41)} ok`)).toEqual(['ok']);
  });

  it('reads URLs and prose as words', () => {
    expect(terms('https://docs.python.org/3/library/argparse.html')).toEqual(['http', 'doc', 'python', 'org', 'librari', 'argpars', 'html']);
  });

  it('keeps the unstemmed form of a word for prefix matching', () => {
    expect(words('parsing')[0]).toEqual({ raw: 'parsing', whole: 'pars', parts: [] });
  });

  it("stems like Porter's algorithm", () => {
    const cases: [string, string][] = [
      ['caresses', 'caress'], ['ponies', 'poni'], ['cats', 'cat'], ['agreed', 'agre'], ['plastered', 'plaster'],
      ['motoring', 'motor'], ['sing', 'sing'], ['conflated', 'conflat'], ['hopping', 'hop'], ['falling', 'fall'],
      ['filing', 'file'], ['happy', 'happi'], ['relational', 'relat'], ['conditional', 'condit'], ['digitizer', 'digit'],
      ['operator', 'oper'], ['hopefulness', 'hope'], ['formaliti', 'formal'], ['electrical', 'electr'], ['goodness', 'good'],
      ['adjustable', 'adjust'], ['replacement', 'replac'], ['adoption', 'adopt'], ['effective', 'effect'], ['cease', 'ceas'],
      ['controll', 'control'], ['generalizations', 'gener'], ['iterator', 'iter'], ['iterable', 'iter'], ['parse', 'pars'],
    ];
    for (const [word, stemmed] of cases) expect(stem(word), word).toBe(stemmed);
    expect(stem('utf8')).toBe('utf8');
    expect(stem('naïveté')).toBe('naïveté');
  });
});

describe('query analysis', () => {
  beforeAll(() => new TypoIndex(() => new LexicalIndex(), importModule).load());

  function index(...docs: string[]) {
    const lexical = new LexicalIndex<null>();
    docs.forEach((text, i) => lexical.set(String(i), [[], terms(text), [], [], [], []], null));
    lexical.compact();
    return { lexical, typos: new TypoIndex(() => lexical, importModule) };
  }
  const names = (lexical: LexicalIndex<null>, q: ReturnType<typeof analyseQuery>) =>
    q.terms.map((t) => `${lexical.term(t.term)}:${t.weight}${t.exact ? '' : '~'}`);

  it('drops stopwords unless nothing else is left', () => {
    const { lexical, typos } = index('how to read a file', 'the end');
    expect(names(lexical, analyseQuery(lexical, typos, 'how to read the file'))).toEqual(['read:1', 'file:1']);
    expect(names(lexical, analyseQuery(lexical, typos, 'the')).length).toBe(1);
  });

  it('keeps "get", the commonest verb of function names, as a query word', () => {
    const { lexical, typos } = index('def get_timezone(): pass', 'how to read a file');
    expect(names(lexical, analyseQuery(lexical, typos, 'how to get the timezone'))).toEqual(['get:1', 'timezon:1']);
  });

  it('adds the parts of a compound identifier at half weight', () => {
    const { lexical, typos } = index('def parse_args(argv): pass');
    expect(names(lexical, analyseQuery(lexical, typos, 'parseArgs x'))).toEqual(['parsearg:1', 'pars:0.5', 'arg:0.5']);
  });

  it('adds programming synonyms both ways', () => {
    const { lexical, typos } = index('d = dict()', 'a dictionary of words');
    expect(names(lexical, analyseQuery(lexical, typos, 'dictionary'))).toEqual(['dictionari:1', 'dict:0.5~']);
    expect(names(lexical, analyseQuery(lexical, typos, 'dict'))).toEqual(['dict:1', 'dictionari:0.5~']);
  });

  it('expands an unknown word to the known terms it starts, or is a typo of', () => {
    const { lexical, typos } = index('import argparse', 'the arguments', 'timestamp value');
    expect(names(lexical, analyseQuery(lexical, typos, 'argp'))).toEqual(['argpars:0.6~']);
    expect(names(lexical, analyseQuery(lexical, typos, 'tmestamp'))).toEqual(['timestamp:0.6~']);
    expect(names(lexical, analyseQuery(lexical, typos, 'argumnets'))).toEqual(['argument:0.6~']);
  });

  it('lets the last word of a query be a prefix too (as you type)', () => {
    const { lexical, typos } = index('user', 'username');
    expect(names(lexical, analyseQuery(lexical, typos, 'user'))).toEqual(['user:1', 'usernam:0.3~']);
  });
});

describe('edit distance', () => {
  it('counts insertions, deletions, substitutions and swaps, capped', () => {
    expect(damerauLevenshtein('file', 'file')).toBe(0);
    expect(damerauLevenshtein('fiel', 'file')).toBe(1);
    expect(damerauLevenshtein('tmestamp', 'timestamp')).toBe(1);
    expect(damerauLevenshtein('kitten', 'sitting')).toBe(3);
    expect(damerauLevenshtein('kitten', 'sitting', 1)).toBe(2);
  });
});
