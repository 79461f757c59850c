"""What the documentation checks read in a Markdown file: its fenced code blocks, its inline code spans, its prose
(with code taken out) and its headings' anchors as GitHub makes them. CommonMark's rules are followed as far as the
project's documents need: fences of three or more backticks or tildes, code spans of one or more backticks, ATX
headings."""

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)


@dataclass
class Block:
    """A fenced code block: its info string (lower case, first word), its lines, and the line it starts on (1-based,
    the opening fence)."""

    info: str
    lines: list
    line: int


@dataclass
class Document:
    path: Path
    blocks: list = field(default_factory=list)  # Block
    prose: list = field(default_factory=list)  # (line number, text) of every line outside fenced blocks
    anchors: set = field(default_factory=set)

    def paragraphs(self):
        """The prose in paragraphs (lines up to a blank line, a heading or a fence), as (first line number, text
        with its line breaks): a code span or a link may run over a line break, never over a paragraph's end."""
        number, lines = None, []
        previous = None
        for line_number, text in self.prose:
            if not text.strip() or _HEADING.match(text) or (previous is not None and line_number != previous + 1):
                if lines:
                    yield number, "\n".join(lines)
                number, lines = None, []
            if text.strip():
                if number is None:
                    number = line_number
                lines.append(text)
            previous = line_number
        if lines:
            yield number, "\n".join(lines)

    def code_spans(self):
        """Every inline code span outside fenced blocks, as (line number, text with line breaks as spaces)."""
        for number, text in self.paragraphs():
            for match in _CODE_SPAN.finditer(text):
                yield number + text.count("\n", 0, match.start()), " ".join(match.group(2).split())

    def prose_without_code(self):
        """The paragraphs with their inline code spans blanked out, as (first line number, text)."""
        for number, text in self.paragraphs():
            yield number, _CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def slug(heading):
    """GitHub's anchor for a heading's text: the text without Markdown markup, lower case, every character that is
    not a letter, mark, number, space, hyphen or underscore dropped, spaces made hyphens."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", heading)  # images
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links: their text
    text = text.replace("`", "")
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML tags
    kept = "".join(c for c in text.lower() if c in " -_" or unicodedata.category(c)[0] in "LMN")
    return kept.replace(" ", "-")


def parse(path, text=None):
    """Reads `path` (or `text`, named `path`) into a Document."""
    if text is None:
        text = Path(path).read_text(encoding="utf-8")
    document = Document(Path(path))
    fence = None
    block = None
    counts = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if fence is not None:
            stripped = line.strip()
            if stripped.startswith(fence) and set(stripped) == {fence[0]} and len(stripped) >= len(fence):
                document.blocks.append(block)
                fence = None
            else:
                block.lines.append(line)
            continue
        opening = _FENCE.match(line)
        if opening:
            fence = opening.group(1)
            block = Block(opening.group(2).lower(), [], number)
            continue
        document.prose.append((number, line))
        heading = _HEADING.match(line)
        if heading:
            anchor = slug(heading.group(2))
            seen = counts.get(anchor, 0)
            counts[anchor] = seen + 1
            document.anchors.add(anchor if seen == 0 else "%s-%d" % (anchor, seen))
        for html_id in re.findall(r'<[a-z]+\b[^>]*\b(?:id|name)="([^"]+)"', line):
            document.anchors.add(html_id)
    if fence is not None:
        document.blocks.append(block)  # an unclosed fence runs to the end, as CommonMark says
    return document


def documents(root):
    """README.md and every Markdown file under docs/, in a stable order."""
    root = Path(root)
    found = [root / "README.md"] if (root / "README.md").exists() else []
    found += sorted((root / "docs").rglob("*.md")) if (root / "docs").is_dir() else []
    return found
