"""History questions from `git log` of a checkout: every gold commit comes from git itself.

Read-only: only `git log`, `git grep`, `git rev-parse` and `git show` are run.
"""

from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]

BOT_RE = re.compile(r"\[bot\]|dependabot|renovate|github-actions|pre-commit|greenkeeper|snyk|semantic-release|"
                    r"allcontributors|imgbot|web-flow|copilot|automation", re.I)


def git(root: Path, *args: str, check: bool = True) -> str:
    r = subprocess.run(["git", "--no-optional-locks", "-C", str(root), *args], capture_output=True, check=False)
    if check and r.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {r.stderr.decode(errors='replace')}")
    return r.stdout.decode("utf-8", "replace")


@dataclass
class Commit:
    sha: str
    parents: list[str]
    author: str
    email: str
    adate: datetime  # author date, with the author's own offset
    cdate: datetime  # committer date
    subject: str

    @property
    def merge(self) -> bool:
        return len(self.parents) > 1


def load_commits(root: Path) -> list[Commit]:
    fmt = "%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cI%x1f%s%x1e"
    out = git(root, "log", "HEAD", f"--format={fmt}")
    commits = []
    for rec in out.split("\x1e"):
        rec = rec.strip("\n")
        if not rec:
            continue
        sha, parents, an, ae, ad, cd, subj = rec.split("\x1f")
        commits.append(Commit(sha, parents.split(), an, ae.lower(), datetime.fromisoformat(ad),
                              datetime.fromisoformat(cd), subj.strip()))
    return commits


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


GENERIC_LOCAL = {"mail", "email", "hello", "contact", "info", "dev", "github", "git", "noreply", "me", "admin", "root",
                 "user", "code", "hi", "office", "support", "users", "dev"}


def clean_authors(commits: list[Commit]) -> set[str]:
    """Author names with no alias: the same person is not also written under another name.

    Identities (name, e-mail) are joined when they share an e-mail, or when a login ties
    them: the local part of one's e-mail (`12345+login@users.noreply.github.com` -> login)
    is the other's name or e-mail local part (fd's `sharkdp <davidpeter@web.de>` and
    `David Peter <sharkdp@users.noreply.github.com>`). A name whose group holds any other
    name is left out, and so are bots: "what did NAME change" then has one complete answer."""
    parent: dict[str, str] = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    idents = {(c.author, c.email) for c in commits}
    for name, email in idents:
        local = re.sub(r"^\d+\+", "", email.split("@")[0])
        toks = [f"name:{name}", f"email:{email}"]
        for t in (_norm(local), _norm(name)):
            if len(t) >= 4 and t not in GENERIC_LOCAL:
                toks.append(f"login:{t}")
        for t in toks[1:]:
            union(toks[0], t)
    names_of_group = defaultdict(set)
    for name, _ in idents:
        names_of_group[find(f"name:{name}")].add(name)
    ok = set()
    for name, email in idents:
        if BOT_RE.search(name) or BOT_RE.search(email):
            continue
        if names_of_group[find(f"name:{name}")] == {name}:
            ok.add(name)
    bots = {c.author for c in commits if BOT_RE.search(c.author) or BOT_RE.search(c.email)}
    return ok - bots


def month_key(d: datetime) -> tuple[int, int]:
    return d.year, d.month


def _windows_agree(cs: list[Commit], key) -> bool:
    """The window holds the same commits by author date (own offset), author date in UTC
    and committer date in UTC, so that no reading of "in March 2021" changes the gold."""
    k = {key(c.adate) for c in cs} | {key(c.adate.astimezone(timezone.utc)) for c in cs} | {
        key(c.cdate.astimezone(timezone.utc)) for c in cs}
    return len(k) == 1


def author_windows(commits: list[Commit], authors: set[str], by: str, max_n: int = 10):
    """(author, window, commits) where the author's commits in that window (by every reading of
    the dates) number 1..max_n and none of them is a merge."""
    key = month_key if by == "month" else (lambda d: (d.year,))
    groups = defaultdict(list)
    for c in commits:
        if c.author in authors:
            for k in {key(c.adate), key(c.adate.astimezone(timezone.utc)), key(c.cdate.astimezone(timezone.utc))}:
                groups[(c.author, k)].append(c)
    out = []
    for (a, k), cs in sorted(groups.items()):
        # the commits whose every date reading falls in k
        if not cs or len(cs) > max_n or any(c.merge for c in cs):
            continue
        if not all(_windows_agree([c], key) for c in cs):
            continue  # a commit on the window's edge: the window is ambiguous
        out.append((a, k, cs))
    return out


def month_windows(commits: list[Commit], max_n: int = 10):
    groups = defaultdict(list)
    for c in commits:
        for k in {month_key(c.adate), month_key(c.adate.astimezone(timezone.utc)),
                  month_key(c.cdate.astimezone(timezone.utc))}:
            groups[k].append(c)
    out = []
    for k, cs in sorted(groups.items()):
        if not 2 <= len(cs) <= max_n or any(c.merge for c in cs):
            continue
        if not all(_windows_agree([c], month_key) for c in cs):
            continue
        out.append((k, cs))
    return out


def count_matches(root: Path, rev: str, regex: str, pathspec: list[str]) -> int:
    out = git(root, "grep", "-c", "-E", "-e", regex, rev, "--", *pathspec, check=False)
    return sum(int(ln.rsplit(":", 1)[1]) for ln in out.splitlines() if ln.rsplit(":", 1)[-1].isdigit())


def introducing_commit(root: Path, regex: str, pathspec: list[str]) -> tuple[str | None, list[str]]:
    """The oldest commit where the number of matches of `regex` changes (git log -G would
    also catch edits of the line; -S with --pickaxe-regex counts occurrences), checked: the
    definition is absent from its parents and present in it, and never vanishes later.
    Returns (sha, every pickaxe commit newest first)."""
    out = git(root, "log", "HEAD", "--format=%H", "--pickaxe-regex", "-S", regex, "--", *pathspec)
    shas = out.split()
    if not shas:
        return None, []
    first = shas[-1]
    parents = git(root, "rev-parse", f"{first}^@", check=False).split()
    if any(count_matches(root, p, regex, pathspec) for p in parents):
        return None, shas
    if count_matches(root, first, regex, pathspec) < 1:
        return None, shas
    for s in shas[:-1]:
        if count_matches(root, s, regex, pathspec) < 1:
            return None, shas  # removed and added again: "introduced" is ambiguous
    return first, shas


def line_history(root: Path, path: str, start: int, end: int) -> list[str]:
    """Commits that touched lines start..end of path, newest first (`git log -L`, no renames
    across files)."""
    out = git(root, "log", "HEAD", f"-L{start},{end}:{path}", "--format=%H", "--no-patch", check=False)
    return [ln for ln in out.split() if re.fullmatch(r"[0-9a-f]{40}", ln)]


def file_history(root: Path, path: str, n: int) -> list[str]:
    out = git(root, "log", "HEAD", "--no-merges", f"-n{n}", "--format=%H", "--", path)
    return out.split()


def subject_topic(subject: str) -> str | None:
    """A commit subject turned into a short topic, or None when it says too little."""
    s = subject.strip()
    if re.match(r"(?i)^(merge|revert|bump|release|version|update changelog|changelog|wip|typo|fmt|format|lint|"
                r"cargo fmt|clippy|rustfmt|run (black|prettier)|apply|pre-commit|\[pre-commit)", s):
        return None
    if re.search(r"(?i)prettier|clippy|rustfmt|gofmt|golangci|\blint|\btypos?\b|whitespace|\bformat(ting)? (the )?code|"
                 r"\breformat|\bblack\b|\bruff\b|isort|pyupgrade|mypy|eslint|xo\b|spelling", s):
        return None  # mechanical changes: "why" has no answer beyond the tool
    s = re.sub(r"\s*\((#|gh-)?\d+\)\s*$", "", s)  # (#123)
    s = re.sub(r"\s*#\d+\s*$", "", s)
    s = re.sub(r"^[a-z]+(\([^)]*\))?!?:\s*", "", s)  # conventional commit prefix
    s = s.strip().rstrip(".")
    words = re.findall(r"[A-Za-z][\w'-]*", s)
    if len(words) < 3 or len(s) > 90:
        return None
    if s.lower() in ("fix tests", "fix test", "fix build", "update docs", "small fixes", "minor fixes", "cleanup", "refactor"):
        return None
    return s[0].lower() + s[1:] if s[:1].isupper() and not s[1:2].isupper() else s
