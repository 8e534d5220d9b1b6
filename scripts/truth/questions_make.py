#!/usr/bin/env python3
"""Builds a labelled question set for `llmc eval` from a real repository checkout.

    questions_make.py CHECKOUT REPO SEED [--out DIR] [--oos FILE]

Writes, under DIR (default: testdata/real/ask of the llmc tree this script sits in):
    REPO.tune.jsonl, REPO.test.jsonl      every question, split 50/50 by a hash of its target
    REPO.nodoc/tune.jsonl, test.jsonl     the doc-comment questions only (same gold), to be
                                          asked of `questions_strip_docs.py CHECKOUT OUT`
    REPO.stats.json                       counts, the commit, and how long it took

Every gold item comes from a parser (Python `ast`, tree-sitter) or from git; only the
out-of-scope questions are written by hand (questions_oos_data.json), and each of those is
kept only if `git grep -i` finds none of its key terms in the checkout. Same inputs, same
output: no clock, no randomness but `random.Random(seed)` over sorted lists.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import questions_history as qh  # noqa: E402
from questions_defs import TEST_RE, Def, scan  # noqa: E402

GENERATOR = "scripts/truth/questions_make.py"

# How many questions of each kind to draw per repository (fewer when the repo has fewer).
QUOTA = {
    "doc": 30,
    "definition": 8,
    "imports": 5,
    "callees": 4,
    "author_month": 4,
    "author_year": 2,
    "month": 2,
    "introduced": 4,
    "func_history": 2,
    "why": 2,
    "file_last": 2,
    "file_recent": 1,
}

DOC_KINDS = {"function", "method", "class", "struct", "enum", "trait", "interface", "type"}

# Verbs that open doc comments; used only to turn a sentence into "where is the code that …".
VERBS = set("""
abort accept access acquire activate add adjust allow append apply assert assign attach attempt
auto-detect await begin bind block build calculate call cancel capture cast catch change check clean
clear clone close collect combine compare compile complete compute configure connect construct consume contain
convert copy count create decide decode define encapsulate advance lex delete describe detect determine disable
discard display do drain draft drop dump echo emit enable encode end ensure enter escape evaluate
execute exit expand expect export extend extract fail fetch fill filter finalize find finish fix flatten
flush fold force format forward freeze generate get give group guess handle hide hold ignore implement
import indent indicate infer initialize initialise inject insert inspect install instantiate interpret
invoke is iterate join keep kill launch leave list load lock log look lookup make map mark match merge
modify move normalize normalise notify open output override pad parse pass patch pause perform pick
pipe pop populate prepare prepend preserve print process produce prompt provide push put quote raise
read rebuild receive record redirect reduce refresh register reject release reload remove render
reorder replace report represent request require reset resolve restore retrieve retry return reverse
rewrite run sanitize save scan search select send serialize set setup show shut skip sleep sort spawn
split start stop store strip substitute supply support swap switch take tell terminate test throw
toggle track transform translate traverse trigger trim truncate try turn unescape unlock unpack unwrap
update upgrade use validate verify visit wait walk warn wrap write yield
""".split())

SKIP_OPENERS = re.compile(
    r"(?i)^(todo|fixme|xxx|hack|deprecated|see |same as|like |alias|this is|constructor|internal|"
    r"implementation of|implements |override|overrides |copied from|note:|nb:|used internally|"
    r"for internal use|private|do not use|don't use|added in|changed in|\.\. |:)"
)


# ----------------------------------------------------------------------------- helpers


def split_of(seed: int, repo: str, key: str) -> str:
    h = hashlib.sha256(f"{seed}|{repo}|{key}".encode()).hexdigest()
    return "tune" if int(h[:8], 16) % 2 == 0 else "test"


def note(**kw) -> str:
    return json.dumps(kw, sort_keys=True, ensure_ascii=False)


def rng_for(seed: int, repo: str, what: str) -> random.Random:
    return random.Random(int(hashlib.sha256(f"{seed}|{repo}|{what}".encode()).hexdigest()[:16], 16))


def sample(rng: random.Random, items: list, n: int) -> list:
    items = list(items)
    if len(items) <= n:
        return items
    return rng.sample(items, n)


ABBREV = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "incl.", "resp.")


def simplify_markup(s: str) -> str:
    s = re.sub(r":[a-z]+:`~?([^`<]+?)(\s*<[^>]+>)?`", r"`\1`", s)  # :meth:`~a.b` -> `a.b`
    s = re.sub(r"\{@(?:link|linkcode|linkplain)\s+([^}|\s]+)(?:[ |][^}]*)?\}", r"`\1`", s)
    s = re.sub(r"\[([^\]]+)\]\((?:https?://|#)[^)]*\)", r"\1", s)  # markdown links
    s = re.sub(r"\[`([^`\]]+)`\]", r"`\1`", s)  # rustdoc intra links [`Foo`]
    s = re.sub(r"\[([A-Za-z_][\w:.]*)\]", r"\1", s)  # go doc [Foo]
    s = s.replace("``", "`")
    return s


def first_sentence(doc: str) -> str | None:
    para = re.split(r"\n\s*\n", doc.strip(), maxsplit=1)[0]
    lines = []
    for ln in para.split("\n"):
        st = ln.strip()
        if re.match(r"(@|:param|:return|:raise|:type|\.\. |Args:|Arguments:|Returns:|Raises:|Example|# |```|- |\* |>>>)", st):
            break
        # an unpunctuated line followed by a capitalised one: the sentence ended at the line end
        if lines and not re.search(r"[.!?:;,(\-]$", lines[-1]) and re.match(r"[A-Z][a-z]", st) and not re.search(
                r"(?i)\b(a|an|the|of|to|in|for|with|and|or|if|is|are|by|from|on|as|that|than|into|its|their)$", lines[-1]):
            lines[-1] += "."
            lines.append(st)
            break
        lines.append(st)
    text = re.sub(r"\s+", " ", " ".join(lines)).strip()
    if not text:
        return None
    # the first sentence: up to the first . ! ? followed by a space (not an abbreviation)
    for m in re.finditer(r"[.!?](?=\s|$)", text):
        head = text[: m.end()]
        if head.lower().endswith(ABBREV) or re.search(r"\b[A-Z]\.$", head):
            continue
        return head.strip()
    return text


def words(s: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9_]+", s)


def third_person(base: str) -> str:
    if re.search(r"[^aeiou]y$", base):
        return base[:-1] + "ies"
    if re.search(r"(s|sh|ch|x|z|o)$", base):
        return base + "es"
    return base + "s"


def verb_base(word: str) -> tuple[str, bool] | None:
    """(base form, was 3rd person) when `word` is one of VERBS in base or -s form."""
    w = word.lower()
    if w in VERBS:
        return w, False
    if w.endswith("ies") and w[:-3] + "y" in VERBS:
        return w[:-3] + "y", True
    if w.endswith("es") and w[:-2] in VERBS and re.search(r"(s|sh|ch|x|z|o)$", w[:-2]):
        return w[:-2], True
    if w.endswith("s") and w[:-1] in VERBS:
        return w[:-1], True
    return None


def rephrase(sentence: str, d: Def, repo: str, how: str) -> str | None:
    """`where is the code that …` (how=locate) or `how does REPO …` (how=concept)."""
    s = sentence.rstrip(".!? ").strip()
    ws = s.split()
    if not ws or len(ws) > 22:
        return None
    # Go/Rust docs open with the identifier: "NewApp creates …"; JS "This function …"
    subject_dropped = False
    if is_own_name(ws[0], d) and len(ws) > 2:
        ws = ws[1:]
        subject_dropped = True
    elif len(ws) > 2 and (re.fullmatch(r"`[^`]+`|[A-Za-z]+[A-Z_][A-Za-z0-9_]*", ws[0]) or ws[0].lower() in ("this", "it")) \
            and (verb_base(ws[1]) or (None, False))[1]:
        ws = ws[1:]  # "`Option` resolves …", "this looks up …": another subject
    if subject_dropped and ws[0].lower() not in ("is", "are", "was", "has") and re.fullmatch(r"[a-z]+s", ws[0]) \
            and verb_base(ws[0]) is None:
        # "fileValueSource encapsulates …": after the name comes its verb, by Go's convention
        w = ws[0]
        base = w[:-3] + "y" if w.endswith("ies") else (w[:-2] if re.search(r"(ss|sh|ch|x|z)es$", w) else w[:-1])
        VERBS.add(base)
    elif len(ws) > 3 and ws[0].lower() == "helper" and ws[1].lower() in ("function", "method", "class"):
        ws = ["a"] + ws
    elif len(ws) > 3 and ws[0].lower() == "this" and ws[1].lower() in ("function", "method", "class", "helper", "type", "struct"):
        ws = ws[2:]
    vb = verb_base(ws[0].strip(","))
    if vb is not None and vb[0] != "is":
        base, _ = vb
        rest = " ".join(ws[1:])
        if how == "locate":
            return f"where is the code that {third_person(base)} {rest}?"
        return f"how does {repo} {base} {rest}?"
    if ws[0].lower() in ("is", "are"):
        ws = ws[1:]
        if not ws or ws[0].lower() not in ("a", "an", "the") or (len(ws) > 1 and ws[1].lower() == "same"):
            return None
    np = " ".join(ws)
    if not np:
        return None
    if re.match(r"(?i)(whether|if|true|false|when|used|called|only|must|should|note|because|since|are|is|do|does)\b", np):
        return None  # a clause, not a thing: "where is the code for whether …" reads badly
    # a noun phrase only: a sentence with its own finite verb reads badly as "how does … work?"
    if re.search(r"(?i)\b(is|are|was|were|will|would|can|could|should|must|has|have|does|do)\b", np):
        return None
    if np[:1].isupper() and not np[1:2].isupper() and not re.match(r"[A-Z][a-z]+[A-Z]", ws[0]):
        np = np[0].lower() + np[1:]
    if how == "locate":
        return f"where is the code for {np}?"
    if re.match(r"(?i)(a|an|the|this)\b", np):
        return f"how does {np} work?"
    return f"explain {np}"


def maybe_lower(s: str, rng: random.Random, name: str = "") -> str:
    w = s.split()[0] if s.split() else ""
    if rng.random() < 0.5 and re.fullmatch(r"[A-Z][a-z]+,?", w) and w.rstrip(",") != name:
        return s[0].lower() + s[1:]
    return s


KIND_WORD = {
    "function": "function",
    "method": "method",
    "class": "class",
    "struct": "struct",
    "enum": "enum",
    "trait": "trait",
    "interface": "interface",
    "type": "type",
}


def lang_of_repo(defs: list[Def]) -> str:
    c = Counter(d.lang for d in defs if not d.test)
    lang = c.most_common(1)[0][0]
    return "typescript" if lang in ("tsx", "javascript") else lang


# ----------------------------------------------------------------------------- doc comments


def doc_candidates(defs: list[Def]) -> list[tuple[Def, str]]:
    sent_count = Counter()
    firsts = {}
    for d in defs:
        if d.doc:
            fs = first_sentence(d.doc)
            if fs:
                norm = re.sub(r"\W+", " ", simplify_markup(fs).lower()).strip()
                sent_count[norm] += 1
                firsts[id(d)] = (fs, norm)
    out = []
    for d in defs:
        if d.test or d.kind not in DOC_KINDS or id(d) not in firsts:
            continue
        fs, norm = firsts[id(d)]
        if sent_count[norm] > 1:
            continue  # the same sentence on more than one definition
        q = simplify_markup(fs)
        n = len(words(q))
        if n < 4 or n > 40 or SKIP_OPENERS.match(q) or q.endswith(":") or "http" in q:
            continue
        if q.lower().startswith(d.name.lower() + " ") and n < 5:
            continue
        out.append((d, q))
    return out


def is_own_name(word: str, d: Def) -> bool:
    """Whether a sentence's first word is `d`'s own name ("NewApp creates …")."""
    return word.strip("`*") in (d.name, d.qualname, d.qualname.replace("::", "."))


def without_subject(d: Def) -> str | None:
    """The normalised first sentence of `d`'s doc comment without a leading own name."""
    fs = first_sentence(d.doc) if d.doc else None
    if not fs:
        return None
    ws = simplify_markup(fs).split()
    if ws and is_own_name(ws[0], d):
        ws = ws[1:]
    return re.sub(r"\W+", " ", " ".join(ws).lower()).strip() or None


def doc_questions(repo: str, commit: str, defs: list[Def], seed: int, n: int) -> list[dict]:
    cands = doc_candidates(defs)
    rng = rng_for(seed, repo, "doc")
    chosen = sample(rng, cands, n)
    chosen.sort(key=lambda t: (t[0].path, t[0].start))
    # Each documented definition's sentence without its own name, read once.
    bare = [(t, without_subject(t)) for t in defs
            if not t.test and t.kind in DOC_KINDS and t.doc]
    out = []
    n_reph = 0
    for i, (d, q) in enumerate(chosen):
        variant = "verbatim"
        text = None
        # a third of them are rephrased ("where is the code that …" / "how does … work?"):
        # every third one, or the next one after it when its sentence does not rephrase
        if n_reph < (i + 1) // 3:
            how = "locate" if n_reph % 2 == 0 else "concept"
            text = rephrase(q, d, repo, how)
            if text:
                variant = how
                n_reph += 1
        if text is None:
            text = maybe_lower(q, rng, d.name)
        intent = "concept" if variant == "concept" else "locate"
        gold = [{"path": d.path, "start_line": d.start, "end_line": d.end}]
        extra = {}
        own = without_subject(d)
        if variant != "verbatim" and own:
            # A rephrasing drops the sentence's subject: "Uint looks up …" and "Uint64 looks
            # up …" both read "how does cli look up …", and either definition answers it.
            twins = [t for t, key in bare if t is not d and key == own]
            gold += [{"path": t.path, "start_line": t.start, "end_line": t.end} for t in twins]
            if twins:
                extra["same_sentence_after_the_name"] = sorted(t.qualname for t in twins)
        out.append({
            "question": text,
            "intent": intent,
            "gold": gold,
            "note": note(source="doc-comment", variant=variant, doc_first_sentence=q, symbol=d.qualname,
                         kind=d.kind, generator=GENERATOR, commit=commit, parser=parser_name(d.lang),
                         **extra),
            "_key": f"def:{d.path}:{d.qualname}",
            "_family": "doc",
        })
    return out


def parser_name(lang: str) -> str:
    return "python ast" if lang == "python" else f"tree-sitter ({lang})"


# ----------------------------------------------------------------------------- structure

COMMON_NAMES = set("""
new default from into clone to_string unwrap map get set len push iter collect is_empty insert
contains fmt write read call run open close next main init __init__ __call__ __repr__ __str__ append
update format join split strip items keys values add remove pop error string len copy parse send
apply with_context as_ref as_str to_owned expect ok err some none then resolve reject catch find
filter reduce forEach toString valueOf has delete build print println emit log debug info warn test
make String Error Errorf Sprintf Printf Println New Get Set Run Name Value Apply Close Write Read
constructor
""".split())


def definition_questions(repo: str, commit: str, defs: list[Def], used: set[str], seed: int, n: int) -> list[dict]:
    by_name = Counter(d.name for d in defs if d.kind != "impl")
    by_qual = Counter(d.qualname for d in defs if d.kind != "impl")
    cands = []
    for d in defs:
        if d.test or d.kind not in KIND_WORD or f"def:{d.path}:{d.qualname}" in used:
            continue
        if d.name.startswith("__") or len(d.name) < 5 or d.name in COMMON_NAMES:
            continue
        if d.kind == "method":
            if by_qual[d.qualname] != 1:
                continue
            shown = d.qualname.replace("::", "::")
        else:
            if by_name[d.name] != 1:
                continue
            shown = d.name
        cands.append((d, shown))
    rng = rng_for(seed, repo, "definition")
    chosen = sorted(sample(rng, cands, n), key=lambda t: (t[0].path, t[0].start))
    templates = [
        "where is `{s}` defined?",
        "show me the definition of `{s}`",
        "find the {k} `{s}`",
        "where is the `{s}` {k} implemented?",
        "go to the definition of {s}",
    ]
    out = []
    for i, (d, s) in enumerate(chosen):
        t = templates[i % len(templates)]
        out.append({
            "question": t.format(s=s, k=KIND_WORD[d.kind]),
            "intent": "definition",
            "gold": [{"path": d.path, "start_line": d.start, "end_line": d.end}],
            "note": note(source="parser definition", symbol=d.qualname, kind=d.kind, generator=GENERATOR,
                         commit=commit, parser=parser_name(d.lang), unique="the name is defined once in the repository"),
            "_key": f"def:{d.path}:{d.qualname}",
            "_family": "definition",
        })
    return out


def callee_questions(repo: str, commit: str, defs: list[Def], used: set[str], seed: int, n: int) -> list[dict]:
    src = [d for d in defs if not d.test and d.kind != "impl"]
    name_count = Counter(d.name for d in defs if d.kind != "impl")
    src_names = {d.name for d in src}
    by_qual = Counter(d.qualname for d in defs if d.kind != "impl")
    cands = []
    for d in src:
        if d.kind not in ("function", "method") or by_qual[d.qualname] != 1 or f"def:{d.path}:{d.qualname}" in used:
            continue
        if d.kind == "function" and name_count[d.name] != 1:
            continue
        if d.name.startswith("__") or len(d.name) < 4:
            continue
        # call sites of functions defined in this repository: the called name is defined
        # exactly once in the whole repository and is not one of the ubiquitous std names
        sites = sorted({c.line for c in d.calls
                        if c.name in src_names and name_count[c.name] == 1 and c.name not in COMMON_NAMES
                        and len(c.name) >= 4})
        names = sorted({c.name for c in d.calls if c.name in src_names and name_count[c.name] == 1
                        and c.name not in COMMON_NAMES and len(c.name) >= 4})
        if 2 <= len(names) <= 10 and len(sites) <= 12:
            cands.append((d, sites, names))
    rng = rng_for(seed, repo, "callees")
    chosen = sorted(sample(rng, cands, n), key=lambda t: (t[0].path, t[0].start))
    templates = ["what does `{s}` call?", "which functions does `{s}` call?", "what functions are called by `{s}`?",
                 "list the calls made inside `{s}`"]
    out = []
    for i, (d, sites, names) in enumerate(chosen):
        s = d.qualname
        out.append({
            "question": templates[i % len(templates)].format(s=s),
            "intent": "callees",
            "gold": [{"path": d.path, "line": ln} for ln in sites],
            "note": note(source="parser call sites", symbol=d.qualname, callees=names, generator=GENERATOR, commit=commit,
                         parser=parser_name(d.lang),
                         limit="call sites whose called name is defined exactly once in the repository (name match, not type resolution)"),
            "_key": f"def:{d.path}:{d.qualname}",
            "_family": "callees",
        })
    return out


def crate_root(path: str, files: list[str]) -> str:
    parts = path.split("/")[:-1]
    fs = set(files)
    while parts and "/".join(parts + ["Cargo.toml"]) not in fs:
        parts.pop()
    return "/".join(parts)


def import_groups(lang: str, R) -> dict[str, list]:
    """target -> import records, for the question 'which files import TARGET?'."""
    groups = defaultdict(list)
    for im in R.imports:
        if lang in ("python", "typescript"):
            if not im.external:
                groups[im.target].append(im)
        elif lang == "go":
            groups[im.target].append(im)
        elif lang == "rust":
            segs = im.target.split("::")
            if segs[0] not in ("std", "core", "alloc", "crate") and segs[0] not in R.crates:
                continue  # `use TokenKind::*`: a local name, not a crate
            if segs[0] in ("std", "core", "alloc") and len(segs) >= 3:
                groups["::".join(segs[:2])].append(im)
            elif segs[0] == "crate" and len(segs) >= 3:
                # `crate::` means a different crate in each member of a workspace
                groups["::".join(segs[:2]) + "\0" + crate_root(im.path, R.files)].append(im)
            elif segs[0] not in ("self", "super", "crate", "std", "core", "alloc") and len(segs) >= 2:
                groups[segs[0]].append(im)
    return groups


def import_questions(repo: str, commit: str, lang: str, R, seed: int, n: int) -> list[dict]:
    groups = import_groups(lang, R)
    cands = []
    shown = Counter(k.split("\0")[0] for k in groups)
    for tgt, ims in sorted(groups.items()):
        tgt = tgt.split("\0")[0]
        if shown[tgt] > 1:
            continue  # `crate::error` of two workspace members: ambiguous
        files = {im.path for im in ims if im.path != tgt}
        if not 2 <= len(files) <= 12:
            continue
        if lang in ("python", "typescript") and (tgt.endswith(("__init__.py", "index.ts")) or TEST_RE.search(tgt)):
            continue
        cands.append((tgt, sorted({(im.path, im.line) for im in ims if im.path != tgt})))
    rng = rng_for(seed, repo, "imports")
    chosen = sorted(sample(rng, cands, n))
    out = []
    for i, (tgt, lines) in enumerate(chosen):
        if lang in ("python", "typescript"):
            mod = R.py_modules and next((m for m, p in R.py_modules.items() if p == tgt), None)
            if i % 2 == 0 or not mod:
                q = f"which files import `{tgt}`?"
            else:
                q = f"where is the `{mod}` module imported?"
            how = "python ast, relative and absolute imports resolved to files" if lang == "python" else \
                "tree-sitter import/export-from statements, relative specifiers resolved to files"
        elif lang == "go":
            q = [f"which files import `{tgt}`?", f"where is the `{tgt}` package imported?"][i % 2]
            how = "tree-sitter (go) import specs"
        else:
            q = [f"which files import from `{tgt}`?", f"where is `{tgt}` used in `use` declarations?"][i % 2]
            how = "tree-sitter (rust) use declarations, use trees flattened, grouped by path prefix"
        out.append({
            "question": q,
            "intent": "imports",
            "gold": [{"path": p, "line": ln} for p, ln in lines],
            "note": note(source="parser imports", target=tgt, generator=GENERATOR, commit=commit, parser=how),
            "_key": f"import:{tgt}",
            "_family": "imports",
        })
    return out


# ----------------------------------------------------------------------------- history


def def_regex(d: Def) -> tuple[str, list[str]] | None:
    """An extended regex matching the definition's own line, and the pathspec to search."""
    n = re.escape(d.name)
    if d.lang == "python":
        if d.kind == "class":
            return rf"class {n}\b", ["*.py"]
        return rf"def {n}\(", ["*.py"]
    if d.lang == "rust":
        if d.kind in ("function", "method"):
            return rf"fn {n}[(<]", ["*.rs"]
        if d.kind in ("struct", "enum", "trait", "type"):
            return rf"{d.kind} {n}\b", ["*.rs"]
        return None
    if d.lang == "go":
        if d.kind == "function":
            return rf"func {n}[(\[]", ["*.go"]
        if d.kind == "method":
            recv = d.qualname.split(".")[0]
            return rf"func \([A-Za-z_0-9]* ?\*?{re.escape(recv)}(\[[^]]*\])?\) {n}\(", ["*.go"]
        if d.kind in ("struct", "interface", "type"):
            return rf"type {n} ", ["*.go"]
        return None
    if d.lang in ("typescript", "tsx", "javascript"):
        exts = ["*.ts", "*.tsx", "*.js", "*.mjs"]
        if d.kind == "function":
            return rf"(function\*? {n}[(<]|(const|let|var) {n} =)", exts
        if d.kind == "class":
            return rf"class {n}\b", exts
        if d.kind in ("interface", "type"):
            return rf"{d.kind} {n}\b", exts
        return None
    return None


def month_name(k) -> str:
    return f"{qh.MONTHS[k[1] - 1]} {k[0]}"


def history_questions(repo: str, commit: str, root: Path, defs: list[Def], seed: int) -> list[dict]:
    commits = qh.load_commits(root)
    by_sha = {c.sha: c for c in commits}
    authors = qh.clean_authors(commits)
    # "full names": two or more words
    full = {a for a in authors if len(a.split()) >= 2}
    out: list[dict] = []
    base_note = dict(generator=GENERATOR, commit=commit)

    def add(q, gold, key, family, intent="history", **kw):
        out.append({"question": q, "intent": intent, "gold": gold,
                    "note": note(source=family, **base_note, **kw), "_key": key, "_family": family})

    # -- by author and month / year
    rng = rng_for(seed, repo, "author_month")
    wins = [w for w in qh.author_windows(commits, full, "month") if len(w[2]) >= 2]
    templ_m = ["what did {a} change in {m}?", "show me {a}'s commits from {m}", "what did {a} work on in {m}?",
               "which commits did {a} author in {m}?"]
    seen_auth = set()
    picked = []
    wins = list(wins)
    rng.shuffle(wins)
    for w in wins:
        if w[0] in seen_auth:
            continue  # one window per author: spread over people
        seen_auth.add(w[0])
        picked.append(w)
        if len(picked) >= QUOTA["author_month"]:
            break
    for i, (a, k, cs) in enumerate(sorted(picked)):
        add(templ_m[i % len(templ_m)].format(a=a, m=month_name(k)), [{"commit": c.sha[:12]} for c in cs],
            f"author:{a}", "git log author+month", window=month_name(k), author=a,
            rule="every commit by this author name whose author date (own offset and UTC) and commit date fall in the month; no merges")
    rng = rng_for(seed, repo, "author_year")
    wins = [w for w in qh.author_windows(commits, full, "year") if len(w[2]) >= 2 and w[0] not in seen_auth]
    templ_y = ["what commits did {a} make in {y}?", "what did {a} contribute in {y}?"]
    picked = []
    rng.shuffle(wins)
    for w in wins:
        if w[0] in seen_auth:
            continue
        seen_auth.add(w[0])
        picked.append(w)
        if len(picked) >= QUOTA["author_year"]:
            break
    for i, (a, k, cs) in enumerate(sorted(picked)):
        add(templ_y[i % len(templ_y)].format(a=a, y=k[0]), [{"commit": c.sha[:12]} for c in cs],
            f"author:{a}", "git log author+year", window=str(k[0]), author=a,
            rule="every commit by this author name in the year (author and commit dates agree); no merges")
    # -- by month, any author
    rng = rng_for(seed, repo, "month")
    wins = qh.month_windows(commits)
    templ = ["what changed in {m}?", "which commits landed in {m}?"]
    for i, (k, cs) in enumerate(sorted(sample(rng, wins, QUOTA["month"]))):
        add(templ[i % 2].format(m=month_name(k)), [{"commit": c.sha[:12]} for c in cs], f"month:{k[0]}-{k[1]:02d}",
            "git log month", window=month_name(k), rule="every commit whose author and commit dates fall in the month; no merges in it")

    # -- functions: introducing commit, line history, why
    name_count = Counter(d.name for d in defs if d.kind != "impl")
    cands = [d for d in defs if not d.test and d.kind in DOC_KINDS and name_count[d.name] == 1
             and len(d.name) >= 5 and not d.name.startswith("__") and def_regex(d)]
    rng = rng_for(seed, repo, "introduced")
    cands = sorted(cands, key=lambda d: (d.path, d.start))
    rng.shuffle(cands)
    n_intro = n_hist = n_why = 0
    tried = 0
    templ_i = ["when was `{s}` added?", "which commit introduced `{s}`?"]
    templ_h = ["who changed `{s}` and when?", "what is the history of `{s}`?"]
    for d in cands:
        if n_intro >= QUOTA["introduced"] and n_hist >= QUOTA["func_history"] and n_why >= QUOTA["why"]:
            break
        tried += 1
        if tried > 60:
            break
        rx, spec = def_regex(d)
        # the regex must match this definition's own line and nothing else in HEAD
        if qh.count_matches(root, "HEAD", rx, spec) != 1:
            continue
        intro, _ = qh.introducing_commit(root, rx, spec)
        if not intro:
            continue
        s = d.qualname
        key = f"def:{d.path}:{d.qualname}"
        if n_intro < QUOTA["introduced"]:
            add(templ_i[n_intro % 2].format(s=s), [{"commit": intro[:12], "grade": 2}], key, "git pickaxe introduction",
                symbol=d.qualname, path=d.path,
                rule=f"oldest commit of git log --pickaxe-regex -S '{rx}' (matches once in HEAD, absent from its parents, never removed since)")
            n_intro += 1
        lh = qh.line_history(root, d.path, d.start, d.end)
        # -L stops at a move between files: only when its oldest commit is the introduction
        if lh and lh[-1] == intro and 2 <= len(lh) <= 10 and not any(by_sha.get(x) and by_sha[x].merge for x in lh):
            if n_hist < QUOTA["func_history"]:
                add(templ_h[n_hist % 2].format(s=s), [{"commit": x[:12], "grade": 2 if x == intro else 1} for x in lh],
                    key, "git log -L", symbol=d.qualname, path=d.path, rule=f"git log -L{d.start},{d.end}:{d.path}")
                n_hist += 1
            elif n_why < QUOTA["why"]:
                for x in lh[:-1]:
                    c = by_sha.get(x)
                    topic = qh.subject_topic(c.subject) if c else None
                    if topic:
                        add(f"why did `{s}` change in \"{topic}\"?", [{"commit": x[:12], "grade": 2}], key,
                            "git log -L commit subject", symbol=d.qualname, path=d.path, subject=c.subject)
                        n_why += 1
                        break
    # -- files: who last changed, what changed recently
    rng = rng_for(seed, repo, "files")
    src_files = sorted({d.path for d in defs if not d.test})
    picks = sample(rng, src_files, QUOTA["file_last"] + QUOTA["file_recent"])
    for i, p in enumerate(sorted(picks)):
        if i < QUOTA["file_last"]:
            h = qh.file_history(root, p, 1)
            if h:
                add(f"who last changed `{p}`?", [{"commit": h[0][:12], "grade": 2}], f"file:{p}", "git log file last",
                    path=p, rule="git log --no-merges -n1 -- PATH")
        else:
            h = qh.file_history(root, p, 3)
            if h:
                add(f"what changed in `{p}` recently?",
                    [{"commit": x[:12], "grade": 2 if j == 0 else 1} for j, x in enumerate(h)], f"file:{p}",
                    "git log file recent", path=p, rule="the 3 newest non-merge commits of git log -- PATH")
    return out


# ----------------------------------------------------------------------------- out of scope


def identifier_forms(term: str) -> list[str]:
    """The term and its identifier spellings. A term written `=WORD` is matched as a whole
    word only (git grep -w), for short terms that are parts of unrelated words (RTL, S3)."""
    if term.startswith("="):
        return [term]
    ws = re.findall(r"[A-Za-z0-9]+", term)
    forms = {term}
    if len(ws) > 1:
        forms |= {"_".join(ws), "-".join(ws), "".join(ws), " ".join(ws),
                  ws[0].lower() + "".join(w.capitalize() for w in ws[1:])}
    return sorted(forms)


# Lock files list dependency names (a `graphql` package deep in yarn.lock is not a GraphQL
# feature of the project) and SVG files are drawings: the absence check skips them.
OOS_GREP_SKIP = ["yarn.lock", "package-lock.json", "pnpm-lock.yaml", "Cargo.lock", "uv.lock", "poetry.lock",
                 "go.sum", "*.svg"]


def oos_questions(repo: str, commit: str, root: Path, data: dict) -> tuple[list[dict], list[dict]]:
    kept, dropped = [], []
    n_files = len(qh.git(root, "ls-files").splitlines())
    for item in data.get(repo, []):
        forms = sorted({f for t in item["terms"] for f in identifier_forms(t)})
        hits = {}
        for f in forms:
            word = ["-w"] if f.startswith("=") else []
            r = qh.git(root, "grep", "-I", "-i", "-F", *word, "-l", "-e", f.lstrip("="), "HEAD", "--", ".",
                       *[f":(exclude,glob)**/{x}" for x in OOS_GREP_SKIP], check=False)
            if r.strip():
                hits[f] = r.split()[:3]
        if item.get("history"):
            for f in forms:
                if f.startswith("="):
                    pat = ["-E", "--grep=(^|[^A-Za-z0-9_])" + re.escape(f[1:]) + "([^A-Za-z0-9_]|$)"]
                else:
                    pat = ["-F", f"--grep={f}"]
                r = qh.git(root, "log", "HEAD", "-i", *pat, "--format=%h", "-n3", check=False)
                if r.strip():
                    hits[f"log:{f}"] = r.split()
        if hits:
            dropped.append({"question": item["q"], "hits": hits})
            continue
        kept.append({
            "question": item["q"],
            "intent": item.get("intent", "locate"),
            "answerable": False,
            "note": note(source="hand-written out-of-scope", generator=GENERATOR, commit=commit,
                         check=f"git grep -I -i -F (-w for =WORD) over {n_files} tracked files at HEAD (code and docs; lock files and SVG skipped)"
                               + (" and git log --grep over all commit messages" if item.get("history") else "")
                               + ": 0 hits for each of " + json.dumps(forms)),
            "_key": f"oos:{item['q']}",
            "_family": "oos-history" if item.get("history") else "oos",
        })
    return kept, dropped


# ----------------------------------------------------------------------------- main


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkout", type=Path)
    ap.add_argument("repo")
    ap.add_argument("seed", type=int)
    ap.add_argument("--out", type=Path, default=HERE.parent.parent / "testdata" / "real" / "ask")
    ap.add_argument("--oos", type=Path, default=HERE / "questions_oos_data.json")
    ap.add_argument("--source", default="", help="where the checkout came from (recorded in the stats)")
    a = ap.parse_args(argv)
    t0 = time.monotonic()
    root = a.checkout.resolve()
    commit = qh.git(root, "rev-parse", "HEAD").strip()
    dirty = qh.git(root, "status", "--porcelain", "--untracked-files=no").strip()
    if dirty:
        print(f"warning: {root} has local changes; lines are read from the work tree", file=sys.stderr)
    R = scan(root)
    lang = lang_of_repo(R.defs)
    seed, repo = a.seed, a.repo

    qs: list[dict] = []
    docs = doc_questions(repo, commit, R.defs, seed, QUOTA["doc"])
    qs += docs
    used = {q["_key"] for q in docs}
    defs_q = definition_questions(repo, commit, R.defs, used, seed, QUOTA["definition"])
    qs += defs_q
    used |= {q["_key"] for q in defs_q}
    qs += callee_questions(repo, commit, R.defs, used, seed, QUOTA["callees"])
    qs += import_questions(repo, commit, lang, R, seed, QUOTA["imports"])
    qs += history_questions(repo, commit, root, R.defs, seed)
    data = json.loads(a.oos.read_text()) if a.oos.exists() else {}
    oos, dropped = oos_questions(repo, commit, root, data)
    qs += oos

    # dedupe identical question texts (keep the first)
    seen, uniq = set(), []
    for q in qs:
        if q["question"] in seen:
            continue
        seen.add(q["question"])
        uniq.append(q)
    qs = uniq

    a.out.mkdir(parents=True, exist_ok=True)
    nodoc_dir = a.out / f"{repo}.nodoc"
    nodoc_dir.mkdir(exist_ok=True)
    files = {"tune": [], "test": []}
    for q in qs:
        files[split_of(seed, repo, q["_key"])].append(q)

    def dump(path: Path, rows: list[dict]):
        with path.open("w", encoding="utf-8") as f:
            for q in rows:
                obj = {k: v for k, v in q.items() if not k.startswith("_")}
                f.write(json.dumps(obj, ensure_ascii=False) + "\n")

    stats = {"repo": repo, "commit": commit, "seed": seed, "language": lang, "source": a.source,
             "generator": GENERATOR, "counts": {}, "dropped_out_of_scope": dropped}
    for split, rows in files.items():
        dump(a.out / f"{repo}.{split}.jsonl", rows)
        dump(nodoc_dir / f"{split}.jsonl", [q for q in rows if q["_family"] == "doc"])
        stats["counts"][split] = {
            "total": len(rows),
            "answerable": sum(1 for q in rows if q.get("answerable", True)),
            "out_of_scope": sum(1 for q in rows if not q.get("answerable", True)),
            "by_intent": dict(sorted(Counter(q["intent"] for q in rows).items())),
            "by_source": dict(sorted(Counter(q["_family"] for q in rows).items())),
        }
    secs = time.monotonic() - t0  # printed only, so that the files are the same on every run
    (a.out / f"{repo}.stats.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({"repo": repo, "commit": commit, "counts": stats["counts"], "seconds": round(secs, 1),
                      "dropped_out_of_scope": len(dropped)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
