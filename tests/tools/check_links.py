#!/usr/bin/env python3
"""Every link and image of the documents resolves inside the repository (CTest doc_links).

Reads README.md and every docs/**/*.md and checks each link and image — inline `[text](target)` and
`![alt](target)`, reference definitions `[name]: target`, autolinks `<https://…>`, and `src`/`href` of inline
HTML — outside code:

- a relative target names a file or folder that exists inside the repository (never above its root); a `#anchor`
  after a Markdown file, or alone, names one of that file's headings (GitHub's anchors) or HTML ids;
- an absolute path (`/…`) or another scheme (`file:`, `mailto:`, …) is refused: it leaves the repository;
- `http://` and `https://` are references and are allowed in docs/ (not fetched: no network), but not in README.md,
  which links only files inside the repository.

Usage: check_links.py REPOSITORY_ROOT
It first checks itself on made-up documents (each kind of broken link must be found), then the repository's.
Exit 0 when every link resolves, 1 with one line per broken link.
"""

import os
import re
import sys
import tempfile
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import markdown_text  # noqa: E402

# [text](target "title") and ![alt](target): the text may hold one level of brackets (an image inside a link).
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^()\s]+(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(\S+)", re.M)
AUTOLINK = re.compile(r"<((?:https?|ftp|file|mailto):[^>\s]+)>")
HTML = re.compile(r"<(?:a|img|source)\b[^>]*?\b(?:href|src)\s*=\s*\"([^\"]*)\"", re.I)


def targets(document):
    """Every link target of a document outside code, as (line number, target)."""
    for number, text in document.prose_without_code():
        for pattern in (INLINE, REFERENCE, AUTOLINK, HTML):
            for match in pattern.finditer(text):
                target = match.group(1).strip()
                if target.startswith("<") and target.endswith(">"):
                    target = target[1:-1]
                yield number + text.count("\n", 0, match.start()), target


def check(root):
    """Every broken link of the documents under `root`, as lines."""
    root = Path(root).resolve()
    problems = []
    parsed = {}

    def anchors_of(path):
        if path not in parsed:
            parsed[path] = markdown_text.parse(path).anchors
        return parsed[path]

    for path in markdown_text.documents(root):
        path = path.resolve()
        name = os.path.relpath(path, root)
        document = markdown_text.parse(path)
        parsed[path] = document.anchors
        for number, target in targets(document):
            where = "%s:%d: %s" % (name, number, target)
            scheme = urllib.parse.urlsplit(target).scheme.lower()
            if scheme in ("http", "https"):
                if name == "README.md":
                    problems.append("%s: the README links only files inside the repository" % where)
                continue
            if scheme or target.startswith("//"):
                problems.append("%s: leaves the repository (%s:)" % (where, scheme or "network path"))
                continue
            if target.startswith("/"):
                problems.append("%s: an absolute path; write it relative to %s" % (where, name))
                continue
            file_part, _, anchor = target.partition("#")
            file_part = urllib.parse.unquote(file_part)
            destination = (path.parent / file_part).resolve() if file_part else path
            if destination != root and root not in destination.parents:
                problems.append("%s: points outside the repository" % where)
                continue
            if not destination.exists():
                problems.append("%s: no such file in the repository" % where)
                continue
            if anchor and destination.suffix == ".md" and destination.is_file():
                if urllib.parse.unquote(anchor) not in anchors_of(destination):
                    problems.append("%s: %s has no heading with the anchor #%s"
                                    % (where, os.path.relpath(destination, root), anchor))
    return problems


SELF_TEST_GOOD = {
    "README.md": "# Read me\n\nSee [the guide](docs/guide.md#two-words) and ![a picture](docs/shot.png).\n"
                 "`[not a link](nowhere.md)`\n\n```\n[nor this](nowhere.md)\n```\n",
    "docs/guide.md": "# Guide\n\n## Two words\n\n## हिन्दी (Hindi)\n\nBack to the [README](../README.md), "
                     "[a heading](#हिन्दी-hindi), [a folder](../docs/), a [reference][r],\n[over a line\nbreak](shot.png) "
                     "and <https://example.com/docs>.\n\n[r]: https://www.rfc-editor.org/rfc/rfc9110\n",
    "docs/shot.png": "",
}

SELF_TEST_BAD = {
    "missing file": ("docs/bad.md", "[x](missing.md)\n"),
    "missing image": ("docs/bad.md", "![x](screenshots/none.png)\n"),
    "missing anchor": ("docs/bad.md", "[x](guide.md#three-words)\n"),
    "missing anchor in itself": ("docs/bad.md", "# Bad\n\n[x](#good)\n"),
    "outside the repository": ("docs/bad.md", "[x](../../outside.md)\n"),
    "absolute path": ("docs/bad.md", "[x](/etc/passwd)\n"),
    "file scheme": ("docs/bad.md", "<file:///etc/passwd>\n"),
    "mailto": ("docs/bad.md", "[x](mailto:someone@example.com)\n"),
    "web link in the README": ("README.md", "# Read me\n\n[x](https://example.com)\n"),
    "broken HTML image": ("docs/bad.md", '<img src="none.png">\n'),
    "broken reference": ("docs/bad.md", "[x][r]\n\n[r]: none.md\n"),
}


def self_test():
    """The checker finds each kind of broken link and passes good documents; a list of what went wrong."""
    failures = []
    for name, (bad_file, bad_text) in [(None, (None, None))] + list(SELF_TEST_BAD.items()):
        with tempfile.TemporaryDirectory() as scratch:
            root = Path(scratch, "repo")
            for relative, text in SELF_TEST_GOOD.items():
                Path(root, relative).parent.mkdir(parents=True, exist_ok=True)
                Path(root, relative).write_text(text, encoding="utf-8")
            Path(scratch, "outside.md").write_text("# Outside\n", encoding="utf-8")
            if bad_file:
                Path(root, bad_file).write_text(bad_text, encoding="utf-8")
            problems = check(root)
            if name is None and problems:
                failures.append("good documents were refused: %s" % problems)
            if name is not None and not problems:
                failures.append("not found: %s" % name)
    return failures


def main():
    if len(sys.argv) != 2:
        print("usage: check_links.py REPOSITORY_ROOT", file=sys.stderr)
        return 2
    failures = self_test()
    for failure in failures:
        print("self-test: %s" % failure)
    if failures:
        return 1
    problems = check(sys.argv[1])
    for problem in problems:
        print(problem)
    if problems:
        print("%d broken link(s)" % len(problems))
        return 1
    count = sum(1 for path in markdown_text.documents(sys.argv[1]) for _ in targets(markdown_text.parse(path)))
    print("%d links in %d documents resolve inside the repository" % (count, len(markdown_text.documents(sys.argv[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
