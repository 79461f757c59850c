#!/usr/bin/env python3
"""Turns the API reference docs/api/openapi.yaml into the JSON the server answers GET /api/v1/openapi.json with.

Usage: openapi_json.py INPUT.yaml OUTPUT.json   (run by the build; needs Debian's python3-yaml)
"""
import json
import sys

import yaml


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        document = yaml.safe_load(f)
    if not isinstance(document, dict) or not str(document.get("openapi", "")).startswith("3.1"):
        print("%s: not an OpenAPI 3.1 document" % argv[1], file=sys.stderr)
        return 1
    with open(argv[2], "w", encoding="utf-8") as f:
        json.dump(document, f, ensure_ascii=False, separators=(",", ":"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
