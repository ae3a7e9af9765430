"""
Pairs of (docstring summary, function code) from Python sources on this machine: the training data of
the code vectors (scripts/code-vectors/train.ts). Run with Debian's python3 (no packages needed):

    python3 scripts/code-vectors/extract.py --exclude <corpus.json> --out .scratch/pairs.jsonl [roots...]

The roots default to Debian's Python standard library and /usr/lib/python3/dist-packages (the Debian
packages scripts/code-vectors/README.md lists). Each function or method with a docstring gives one pair:
its docstring's first paragraph (what a person would ask for), and its source with the docstring taken
out (so the vectors learn which code goes with which words, not to match the docstring to itself).
Functions in tests, very short ones and copies (the same code twice) are left out, and so is any
function whose code is in `--exclude` (a JSON object or list of code strings: an evaluation corpus),
compared with all whitespace removed.
"""
import argparse
import ast
import hashlib
import json
import os
import random
import re
import sys
import warnings

warnings.filterwarnings('ignore')

DEFAULT_ROOTS = ['/usr/lib/python3.11']
# Licences whose code may go into training without conditions on what is made from it (SPDX-ish names
# as Debian's machine-readable copyright files write them; compared lower-cased, up to a version suffix).
PERMISSIVE = ('mit', 'expat', 'bsd', 'apache', 'psf', 'python', 'isc', 'zlib', 'public-domain', 'cc0', 'unlicense', 'hpnd', 'zpl', 'x11', '0bsd', 'wtfpl', 'boost')
SKIP_DIRS = {'test', 'tests', 'testing', '__pycache__', 'idlelib', 'lib2to3', 'site-packages', 'dist-packages', 'examples'}


def squash(code):
    return re.sub(r'\s+', '', code)


def digest(text):
    return hashlib.sha1(text.encode('utf-8', 'replace')).hexdigest()


def shape_of(node):
    """The function's syntax tree without its docstring: the same for two copies however they are laid out or commented."""
    body = node.body[1:] if ast.get_docstring(node) is not None else node.body
    return digest(ast.dump(ast.Module(body=body, type_ignores=[])) + node.name)


def excluded_keys(code):
    """The keys an evaluation function is left out by: its text without whitespace, and its shape when it parses."""
    keys = {digest(squash(code))}
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return keys
    keys.update(shape_of(n) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return keys


def summary_of(doc):
    """The docstring's first paragraph on one line, or None when it is not a sentence of words."""
    para = doc.strip().split('\n\n')[0]
    para = ' '.join(line.strip() for line in para.splitlines())
    # Sphinx roles and markup say nothing a person would type.
    para = re.sub(r':[a-z]+:`~?([^`]+)`', r'\1', para)
    para = para.replace('``', '').replace('`', '')
    words = re.findall(r'[A-Za-z]+', para)
    if len(words) < 3 or len(words) > 60:
        return None
    if para.startswith(('>>>', '..', 'Parameters', 'Args', 'Returns', 'TODO', 'XXX', 'Deprecated', 'See ')):
        return None
    return para[:400]


def without_docstring(source, node):
    """The function's source with its docstring statement removed."""
    body = node.body[0]
    lines = source.splitlines(keepends=True)
    first = node.lineno
    start, end = body.lineno - first, body.end_lineno - first
    kept = lines[:start] + lines[end + 1:]
    return ''.join(kept).rstrip() + '\n'


def pairs_of(path, text):
    try:
        tree = ast.parse(text, filename=path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    lines = text.splitlines(keepends=True)
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        doc = ast.get_docstring(node, clean=True)
        if not doc or node.name.startswith('test'):
            continue
        summary = summary_of(doc)
        if summary is None:
            continue
        # The function's lines (decorators left out), dedented by its own indentation.
        indent = node.col_offset
        source = ''.join(line[indent:] if line[:indent].strip() == '' else line for line in lines[node.lineno - 1:node.end_lineno])
        code = without_docstring(source, node)
        if code.count('\n') < 3 or len(code) > 6000:
            continue
        yield {'name': node.name, 'path': path, 'query': summary, 'code': code, 'full': source, 'shape': shape_of(node)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('roots', nargs='*', default=DEFAULT_ROOTS)
    parser.add_argument('--debs', help='a folder of unpacked Debian packages (one folder each, `dpkg -x`): their Python code, when permissively licensed')
    parser.add_argument('--exclude', help='JSON object (keys) or list of code strings to leave out')
    parser.add_argument('--out', required=True)
    parser.add_argument('--per-package', type=int, default=5000, help='at most this many pairs of one top-level package (a seeded sample)')
    parser.add_argument('--per-summary', type=int, default=2, help='at most this many pairs with the same summary')
    args = parser.parse_args()

    excluded = set()
    if args.exclude:
        with open(args.exclude, encoding='utf-8') as f:
            data = json.load(f)
        for code in (data.keys() if isinstance(data, dict) else data):
            excluded.update(excluded_keys(code))

    roots = list(args.roots)
    licences = {}
    if args.debs:
        for name in sorted(os.listdir(args.debs)):
            folder = os.path.join(args.debs, name)
            licence = licence_of(folder, name)
            licences[licence or 'unknown'] = licences.get(licence or 'unknown', 0) + 1
            code = os.path.join(folder, 'usr', 'lib', 'python3', 'dist-packages')
            if licence and licence.lower().startswith(PERMISSIVE) and os.path.isdir(code):
                roots.append(code)

    seen = set()
    counts = {'files': 0, 'pairs': 0, 'copies': 0, 'excluded': 0, 'same summary': 0, 'package share': 0}
    summaries = {}
    by_package = {}
    if True:
        for root in roots:
            for folder, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith('.'))
                for name in sorted(files):
                    if not name.endswith('.py') or name.startswith('test_'):
                        continue
                    path = os.path.join(folder, name)
                    try:
                        with open(path, encoding='utf-8') as f:
                            text = f.read()
                    except (UnicodeDecodeError, OSError):
                        continue
                    counts['files'] += 1
                    for pair in pairs_of(path, text):
                        if {digest(squash(pair['full'])), pair['shape']} & excluded:
                            counts['excluded'] += 1
                            continue
                        key = digest(squash(pair['code']))
                        if key in seen:
                            counts['copies'] += 1
                            continue
                        seen.add(key)
                        said = pair['query'].lower()
                        summaries[said] = summaries.get(said, 0) + 1
                        if summaries[said] > args.per_summary:
                            counts['same summary'] += 1
                            continue
                        del pair['full'], pair['shape']
                        by_package.setdefault(package_of(root, path), []).append(pair)
    # Generated code (one cloud SDK alone gave 40% of the pairs) would teach its own few phrasings.
    rng = random.Random(1)
    with open(args.out, 'w', encoding='utf-8') as out:
        for package in sorted(by_package):
            pairs = by_package[package]
            if len(pairs) > args.per_package:
                counts['package share'] += len(pairs) - args.per_package
                pairs = rng.sample(pairs, args.per_package)
            for pair in pairs:
                out.write(json.dumps(pair) + '\n')
                counts['pairs'] += 1
    counts['packages'] = len(by_package)
    counts['roots'] = len(roots)
    if licences:
        counts['licences of the Debian packages'] = dict(sorted(licences.items(), key=lambda kv: -kv[1])[:25])
    print(json.dumps(counts), file=sys.stderr)


def licence_of(folder, name):
    """The licence of a package's files in general (the `Files: *` paragraph of its DEP-5 copyright file), or None."""
    path = os.path.join(folder, 'usr', 'share', 'doc', name, 'copyright')
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError:
        return None
    for paragraph in re.split(r'\n\s*\n', text):
        fields = dict(re.findall(r'^([A-Za-z-]+):[ \t]*(.*)$', paragraph, re.M))
        if fields.get('Files', '').split() == ['*'] and fields.get('License'):
            return fields['License'].split()[0]
    return None


def package_of(root, path):
    """The top-level package or module a file belongs to under its root."""
    return os.path.relpath(path, root).split(os.sep)[0].removesuffix('.py')


if __name__ == '__main__':
    main()
