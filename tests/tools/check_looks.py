#!/usr/bin/env python3
"""CTest style_looks: the `look` property (ui/widgets/look.h) and ui/style.qss agree (issue 14).

Every look the UI sets -- Look::set(widget, "name") in C++ (each string literal of its second argument, so both
sides of a `?:` count; a literal inside QLatin1String(…) or
QStringLiteral(…), e.g. in the condition, does not) or <property name="look"> in a .ui form -- must be styled by a [look="name"] selector in
ui/style.qss, and every look style.qss styles must be set somewhere; a typo on either side fails. A Look::set whose
look is not a string literal fails too, since it cannot be checked.

Usage: check_looks.py SOURCE_DIR        (exit 0 when they agree, 1 with the differences)
"""

import os
import re
import sys

LOOK_SELECTOR = re.compile(r'\[look="([^"]*)"\]')
UI_LOOK = re.compile(r'<property name="look"[^>]*>\s*<string[^>]*>([^<]*)</string>')
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def look_calls(text):
    """(line, second argument) of every Look::set(...) call in C++ source `text`."""
    for match in re.finditer(r'\bLook::set\s*\(', text):
        if re.search(r'\bvoid\s+$', text[:match.start()]):
            continue  # its definition
        depth, i = 1, match.end()
        comma = None
        while i < len(text) and depth:
            c = text[i]
            if c == '"':
                i = STRING.match(text, i).end()
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth -= 1
            elif c == "," and depth == 1 and comma is None:
                comma = i
            i += 1
        if comma is not None:
            yield text.count("\n", 0, match.start()) + 1, text[comma + 1:i - 1]


def used_looks(source_dir):
    """look -> first place it is set; and the places whose look is not a literal."""
    used, unchecked = {}, []
    for top in ("ui", "app"):
        for root, _, files in os.walk(os.path.join(source_dir, top)):
            for name in sorted(files):
                path = os.path.join(root, name)
                where = os.path.relpath(path, source_dir)
                if name.endswith((".cpp", ".h")):
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                    for line, argument in look_calls(text):
                        # The look is a bare literal; a QLatin1String("…") in a condition is not one.
                        literals = [m.group(1) for m in STRING.finditer(argument)
                                    if not re.search(r'(String|Literal)\s*\(\s*$', argument[:m.start()])]
                        if not literals:
                            unchecked.append("%s:%d: Look::set(…, %s)" % (where, line, argument.strip()))
                        for look in literals:
                            used.setdefault(look, "%s:%d" % (where, line))
                elif name.endswith(".ui"):
                    with open(path, encoding="utf-8") as f:
                        text = f.read()
                    for match in UI_LOOK.finditer(text):
                        used.setdefault(match.group(1), "%s:%d" % (where, text.count("\n", 0, match.start()) + 1))
    used.pop("", None)  # Look::set(w, "") takes the look away
    return used, unchecked


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    source_dir = argv[1]
    with open(os.path.join(source_dir, "ui", "style.qss"), encoding="utf-8") as f:
        styled = set(LOOK_SELECTOR.findall(f.read()))
    used, unchecked = used_looks(source_dir)
    problems = ["%s: look %r is set here but ui/style.qss has no [look=%r] rule" % (where, look, look)
                for look, where in sorted(used.items(), key=lambda item: item[1]) if look not in styled]
    problems += ["ui/style.qss: [look=%r] is styled but no code or form sets it" % look
                 for look in sorted(styled - set(used))]
    problems += ["%s: the look is not a string literal, so it cannot be checked" % call for call in unchecked]
    for problem in problems:
        print(problem)
    print("style_looks: %d looks set, %d styled, %d problem(s)" % (len(used), len(styled), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
