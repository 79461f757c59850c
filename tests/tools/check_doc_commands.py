#!/usr/bin/env python3
"""The commands the documents tell a reader to type are real (CTest doc_commands).

Reads README.md and every docs/**/*.md and checks, against the built program:

- every `rechargedesk …` command — in shell code blocks, and in inline code that starts with the command (usage forms
  such as `rechargedesk keys create\\|list\\|revoke` included) — names a command and action the program knows: it
  runs `rechargedesk COMMAND [ACTION] --help` (the terminal's own options for a bare `rechargedesk --…`) and fails on
  a non-zero exit;
- every option such a command line gives (`--name`) is one that `--help` lists for that command;
- every `ini` code block without a [section] — a `server.conf` snippet — passes `rechargedesk serve --config FILE
  --check-config`;
- no `rechargedesk` command line of a shell code block is written out twice in the documents (each command a reader
  types appears once).

Usage: check_doc_commands.py RECHARGEDESK_BINARY REPOSITORY_ROOT
It first checks itself on made-up documents (a wrong command, action and option, a duplicate, a bad configuration,
each of which must be found), then the repository's. Exit 0 when all is well, 1 with one line per problem.
"""

import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import markdown_text  # noqa: E402

SHELL_BLOCKS = {"", "sh", "bash", "shell", "console"}
SEPARATORS = {"|", "||", "&&", ";", "&", "(", ")", "|&", ";;"}
REDIRECTS = re.compile(r"^\d*(>>?|<|>&|&>)$")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
INLINE_COMMAND = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]*=\S* )*(?:sudo (?:-u \S+ )?)?(?:\S*/)?rechargedesk(?:\s|$)")
ACTION = re.compile(r"^[a-z][a-z-]*(?:\|[a-z][a-z-]*)*$")
OPTION = re.compile(r"^--[a-z][a-z0-9-]*")


class Occurrence:
    """One `rechargedesk` command line in a document: where it is, and its arguments after the program's name."""

    def __init__(self, where, arguments, text):
        self.where = where
        self.arguments = arguments
        self.text = text


def shell_lines(block):
    """The logical lines of a shell block (continuations joined), as (line number, text); lines inside a multi-line
    quoted string are left out."""
    pending, start = "", None
    in_quote = False
    for offset, line in enumerate(block.lines, start=1):
        number = block.line + offset
        if in_quote:
            if line.count("'") % 2 == 1:
                in_quote = False
            continue
        text = line[2:] if line.startswith("$ ") else line
        if start is None:
            start = number
        if text.rstrip().endswith("\\"):
            pending += text.rstrip()[:-1] + " "
            continue
        logical, pending = pending + text, ""
        yield start, logical
        start = None
        try:
            shlex.split(logical, comments=True)
        except ValueError:
            in_quote = logical.count("'") % 2 == 1


def tokens_of(line):
    """Shell tokens of one logical line, comments dropped, operators as tokens of their own; None when the line does
    not tokenize (an unbalanced quote)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:
        return None


def commands_in(tokens):
    """The arguments of each `rechargedesk` command in a token list: simple commands split at operators, leading
    variable assignments, sudo and its options, and redirections skipped."""
    segments, current = [], []
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in SEPARATORS:
            segments.append(current)
            current = []
        elif REDIRECTS.match(token):
            skip_next = True
        else:
            current.append(token)
    segments.append(current)
    for segment in segments:
        words = list(segment)
        while words and ASSIGNMENT.match(words[0]):
            words.pop(0)
        if words and words[0] == "sudo":
            words.pop(0)
            while words and words[0].startswith("-"):
                takes_value = words[0] in ("-u", "-g", "-C")
                words.pop(0)
                if takes_value and words:
                    words.pop(0)
        if words and words[0].rsplit("/", 1)[-1] == "rechargedesk":
            yield words[1:]


def occurrences(document):
    """Every `rechargedesk` command line of a document, and every server.conf snippet as (where, text)."""
    found, configs, block_lines = [], [], []
    for block in document.blocks:
        if block.info in ("ini", "conf") and not any(l.strip().startswith("[") for l in block.lines):
            configs.append(("%s:%d" % (document.path, block.line), "\n".join(block.lines) + "\n"))
        if block.info not in SHELL_BLOCKS:
            continue
        for number, line in shell_lines(block):
            tokens = tokens_of(line)
            if tokens is None:
                continue
            where = "%s:%d" % (document.path, number)
            commands = list(commands_in(tokens))
            for arguments in commands:
                found.append(Occurrence(where, arguments, line.strip()))
            if commands:
                block_lines.append((where, " ".join(tokens)))
    for number, span in document.code_spans():
        if INLINE_COMMAND.match(span):
            words = span.replace("\\|", "|").split()
            while words and words[0].rsplit("/", 1)[-1] != "rechargedesk":
                words.pop(0)
            found.append(Occurrence("%s:%d" % (document.path, number), words[1:], span))
    return found, configs, block_lines


def clean(word):
    return word.strip("[](){}…,;.").strip()


class Program:
    """The built program, asked for its --help once per command and action."""

    def __init__(self, binary, scratch):
        self.binary = binary
        self.environment = dict(os.environ, HOME=scratch, XDG_RUNTIME_DIR=scratch, QT_QPA_PLATFORM="offscreen",
                                RECHARGEDESK_DATA_DIR=os.path.join(scratch, "data"))
        self.scratch = scratch
        self.answers = {}

    def run(self, arguments):
        key = tuple(arguments)
        if key not in self.answers:
            done = subprocess.run([self.binary] + arguments, env=self.environment, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, timeout=60)
            self.answers[key] = (done.returncode, done.stdout + done.stderr)
        return self.answers[key]

    def check_config(self, text):
        path = os.path.join(self.scratch, "server.conf")
        Path(path).write_text(text, encoding="utf-8")
        done = subprocess.run([self.binary, "serve", "--config", path, "--check-config"], env=self.environment,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        return done.returncode, (done.stdout + done.stderr).strip()


def help_calls(arguments):
    """The --help calls that check one command line: a list of (what it is, argv)."""
    words = [clean(w) for w in arguments]
    words = [w for w in words if w]
    if not words or words[0].startswith("-"):
        first = words[0] if words else ""
        if first == "--version":
            return [("rechargedesk --version", ["--version"])]
        if first in ("--help", "-h"):
            return [("rechargedesk --help", ["--help"])]
        # The terminal: any option first opens it; --help makes it print its options and stop.
        return [("rechargedesk (the terminal)", ["--kiosk", "--help"])]
    calls = []
    for command in words[0].split("|"):
        if len(words) > 1 and ACTION.match(words[1]):
            for action in words[1].split("|"):
                calls.append(("rechargedesk %s %s" % (command, action), [command, action, "--help"]))
        else:
            calls.append(("rechargedesk %s" % command, [command, "--help"]))
    return calls


def options_of(arguments):
    options = []
    for word in arguments:
        match = OPTION.match(clean(word).split("=", 1)[0])
        if match and match.group(0) not in ("--help", "--version"):  # every command takes these
            options.append(match.group(0))
    return options


def check(root, program):
    """Every problem of the documents under `root`, as lines."""
    problems = []
    seen_lines = {}
    check.counted = 0
    for path in markdown_text.documents(root):
        document = markdown_text.parse(path)
        document.path = Path(os.path.relpath(path, root))
        found, configs, block_lines = occurrences(document)
        check.counted += len(found) + len(configs)
        for occurrence in found:
            helps = []
            for what, argv in help_calls(occurrence.arguments):
                status, output = program.run(argv)
                if status != 0:
                    first = next((l for l in output.splitlines() if l.startswith("rechargedesk:")), "exit %d" % status)
                    problems.append("%s: `%s`: %s --help failed: %s" % (occurrence.where, occurrence.text, what, first))
                else:
                    helps.append(output)
            if not helps:
                continue
            for option in options_of(occurrence.arguments):
                pattern = re.compile(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])")
                if not any(pattern.search(text) for text in helps):
                    problems.append("%s: `%s`: %s is not an option of this command (--help does not list it)"
                                    % (occurrence.where, occurrence.text, option))
        for where, text in configs:
            status, output = program.check_config(text)
            if status != 0:
                problems.append("%s: server.conf snippet refused by serve --check-config: %s" % (where, output))
        for where, line in block_lines:
            if line in seen_lines:
                problems.append("%s: the command `%s` is written out again (first at %s); write each command once"
                                % (where, line, seen_lines[line]))
            else:
                seen_lines[line] = where
    return problems


SELF_TEST_GOOD = """# Good

```sh
sudo -u rechargedesk rechargedesk keys create --name "counter 1" --mode test --scope pos --data-dir /tmp/x
KEY=$(awk '{ print }' f) && rechargedesk serve --listen 127.0.0.1:0 \\
    --data-dir /tmp/x   # a comment with --no-such-option
python3 -c 'import sys
print("rechargedesk bogus")'
```

```ini
listen = 127.0.0.1:8080
backup-at = off
```

```ini
[Service]
IPAddressDeny=any
```

Usage: `rechargedesk upstream set\\|show\\|check`, `rechargedesk --version`, `rechargedesk [--kiosk] [--server URL]`.
"""

SELF_TEST_BAD = {
    "unknown command": "```sh\nrechargedesk frobnicate --data-dir /tmp/x\n```\n",
    "unknown action": "Run `rechargedesk keys destroy KEY_ID`.\n",
    "unknown option": "```sh\nrechargedesk wallet topup --mode test --amount 5 --colour red\n```\n",
    "unknown terminal option": "`rechargedesk --fullscreen`\n",
    "twice": "```sh\nrechargedesk keys list\n```\n\n```bash\nrechargedesk  keys list   # again\n```\n",
    "bad configuration": "```ini\nlisten = 127.0.0.1:8080\ncolour = red\n```\n",
}


def self_test(program):
    """The checker finds each kind of problem and passes good documents; a list of what went wrong."""
    failures = []
    with tempfile.TemporaryDirectory() as root:
        Path(root, "README.md").write_text(SELF_TEST_GOOD, encoding="utf-8")
        problems = check(root, program)
        if problems:
            failures.append("good documents were refused: %s" % problems)
        for name, text in SELF_TEST_BAD.items():
            Path(root, "docs").mkdir(exist_ok=True)
            Path(root, "docs", "bad.md").write_text(text, encoding="utf-8")
            if not check(root, program):
                failures.append("not found: %s" % name)
    return failures


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    binary, root = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as scratch:
        program = Program(binary, scratch)
        failures = self_test(program)
        if failures:
            for failure in failures:
                print("self-test: %s" % failure)
            return 1
        problems = check(root, program)
    for problem in problems:
        print(problem)
    if problems:
        print("%d problem(s) in the documented commands" % len(problems))
        return 1
    print("%d documented rechargedesk commands and server.conf snippets checked" % check.counted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
