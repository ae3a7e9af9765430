/**
 * Accuracy and cost of the language detector candidates on the labelled samples.
 *
 *   node --experimental-strip-types test/bench/detect-accuracy.ts [--verbose] [--sample more.json]
 *
 * (Node 22.6+; on Node 20, which lacks the flag, bundle it first:
 *   npx esbuild test/bench/detect-accuracy.ts --bundle --platform=node --format=esm --packages=external \
 *     --outfile=node_modules/.cache/bench/detect-accuracy.mjs && node node_modules/.cache/bench/detect-accuracy.mjs)
 *
 * Candidates:
 *  - vscode:     @vscode/vscode-languagedetection alone, its top label (no label: txt)
 *  - hljs:       highlight.js `highlightAuto` over the sample's languages (relevance < 5: txt)
 *  - signatures: the chosen classifier without the model (prose check, certain signatures, signature table)
 *  - chosen:     createLanguageClassifier with the vscode model (what the service uses)
 * Times are the mean per call after one warm-up pass over the sample.
 *
 * Measured in Node 20 on a busy 2-core machine (accuracy; ms per call):
 *                      development (100)   held-out (50)   real-code windows (489, --sample)
 *   vscode               0.71  20-35 ms      0.70             0.52
 *   hljs (16 grammars)   0.73   2-5 ms       0.72             0.50
 *   signatures           0.99  0.2 ms        0.96             0.74
 *   chosen               1.00  15-45 ms      1.00             0.80
 * The real-code sample was 3-20 line windows cut at random from source files on the machine (Python
 * stdlib, JDK sources, node_modules JS/TS/CSS/HTML/markdown, /usr/include C and C++ headers, PHP,
 * PostgreSQL SQL, shell scripts, licence texts as prose); its labels are noisy (comment-only windows,
 * C++ in .h files), which is why every candidate scores lower there.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import type { ClassificationSpecificEnum } from '../../worker/core/model/schemas.ts';
import { createLanguageClassifier } from '../../worker/core/assets/language/classify.ts';
import { createVscodeLanguageModel } from '../../worker/core/assets/language/vscode-model.ts';
import { nodeModelFiles } from '../../worker/node/model-files.ts';
import { heldOutSample, languageSample, type LabelledSnippet } from '../fixtures/language-sample.ts';

type Detect = (code: string) => Promise<string>;

const HLJS_LANGUAGES: Record<string, [unknown, string]> = {
  python: [python, 'py'], typescript: [typescript, 'ts'], javascript: [javascript, 'js'], java: [java, 'java'],
  go: [go, 'go'], rust: [rust, 'rs'], c: [c, 'c'], cpp: [cpp, 'cpp'], csharp: [csharp, 'cs'], ruby: [ruby, 'rb'],
  php: [php, 'php'], bash: [bash, 'sh'], sql: [sql, 'sql'], xml: [xml, 'html'], css: [css, 'css'], markdown: [markdown, 'md'],
};
for (const [name, [grammar]] of Object.entries(HLJS_LANGUAGES)) hljs.registerLanguage(name, grammar as Parameters<typeof hljs.registerLanguage>[1]);

async function candidates(): Promise<Record<string, Detect>> {
  const vscode = createVscodeLanguageModel(nodeModelFiles());
  const chosen = createLanguageClassifier({ modelFiles: nodeModelFiles() });
  const signatures = createLanguageClassifier();
  return {
    vscode: async (code) => {
      const scores = [...(await vscode.predict(code)).entries()].sort((a, b) => b[1] - a[1]);
      return scores[0]?.[0] ?? 'txt';
    },
    hljs: async (code) => {
      const result = hljs.highlightAuto(code, Object.keys(HLJS_LANGUAGES));
      return result.relevance < 5 || !result.language ? 'txt' : HLJS_LANGUAGES[result.language]![1];
    },
    signatures: async (code) => (await signatures.classify(code)).specific,
    chosen: async (code) => (await chosen.classify(code)).specific,
  };
}

export interface Measurement {
  accuracy: number;
  perLanguage: Map<string, { ok: number; total: number }>;
  msPerCall: number;
  misses: { want: string; got: string; code: string }[];
}

export async function measure(detect: Detect, sample: readonly LabelledSnippet[]): Promise<Measurement> {
  for (const s of sample) await detect(s.code); // warm-up: model load, regex and grammar compilation
  const perLanguage = new Map<string, { ok: number; total: number }>();
  const misses: Measurement['misses'] = [];
  let ok = 0;
  let elapsed = 0;
  for (const s of sample) {
    const start = performance.now();
    const got = await detect(s.code);
    elapsed += performance.now() - start;
    const row = perLanguage.get(s.lang) ?? { ok: 0, total: 0 };
    row.total++;
    if (got === s.lang) {
      row.ok++;
      ok++;
    } else {
      misses.push({ want: s.lang, got, code: s.code });
    }
    perLanguage.set(s.lang, row);
  }
  return { accuracy: ok / sample.length, perLanguage, msPerCall: elapsed / sample.length, misses };
}

async function main() {
  const args = process.argv.slice(2);
  const verbose = args.includes('--verbose');
  const extra = args.indexOf('--sample');
  const all = await candidates();
  const samples: [string, readonly LabelledSnippet[]][] = [
    ['development sample', languageSample],
    ['held-out sample', heldOutSample],
  ];
  // Any other labelled sample, e.g. windows cut from real source files: a JSON array of {lang, code}.
  if (extra >= 0 && args[extra + 1]) samples.push([args[extra + 1]!, JSON.parse(readFileSync(args[extra + 1]!, 'utf8'))]);
  for (const [title, sample] of samples) {
    const langs = [...new Set(sample.map((s) => s.lang as ClassificationSpecificEnum))];
    console.log(`\n${title}: ${sample.length} snippets, ${langs.length} labels`);
    console.log(['candidate'.padEnd(11), 'accuracy', 'ms/call', ...langs.map((l) => l.padStart(5))].join(' '));
    const misses: string[] = [];
    for (const [name, detect] of Object.entries(all)) {
      const m = await measure(detect, sample);
      const cells = langs.map((l) => {
        const r = m.perLanguage.get(l)!;
        return `${r.ok}/${r.total}`.padStart(5);
      });
      console.log([name.padEnd(11), m.accuracy.toFixed(3).padStart(8), m.msPerCall.toFixed(2).padStart(7), ...cells].join(' '));
      if (verbose) {
        for (const miss of m.misses) misses.push(`  ${name}: ${miss.want} -> ${miss.got}: ${miss.code.split('\n')[0]!.slice(0, 70)}`);
      }
    }
    if (misses.length) console.log(misses.join('\n'));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
