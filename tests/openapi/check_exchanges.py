#!/usr/bin/env python3
"""Checks every HTTP exchange the API tests recorded against docs/api/openapi.yaml (CTest `api_contract`).

The API suites write one JSON line per answered request (tests/support/exchangerecorder.cpp) into a directory;
this script matches each request's path to the document's path templates, finds the operation and the documented
response for the status, and validates headers and body with JSON Schema 2020-12 (Debian's python3-jsonschema; an
OpenAPI 3.1 schema is a 2020-12 schema). A route, method or status the document does not list is a failure too.

Usage: check_exchanges.py OPENAPI.yaml RECORD_DIR     check the recordings (exit 0 ok, 1 mismatches, 77 none)
       check_exchanges.py OPENAPI.yaml --self-test    show that wrong answers are rejected
"""

import json
import os
import sys

import jsonschema
import yaml

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


class Contract:
    """The OpenAPI document, ready to answer: which operation serves this path, does this answer fit it."""

    def __init__(self, document):
        self.document = document
        self.validators = {}  # JSON pointer -> validator of the schema there
        self.templates = []  # (segments, template)
        for template in document.get("paths", {}):
            self.templates.append((template.strip("/").split("/"), template))

    def match(self, path):
        """The path template matching `path`; literal segments win over `{name}` ones (/transactions/summary)."""
        segments = path.strip("/").split("/")
        best = None
        for pattern, template in self.templates:
            if len(pattern) != len(segments):
                continue
            literals = 0
            for p, s in zip(pattern, segments):
                if p.startswith("{") and p.endswith("}"):
                    if not s:
                        break
                elif p != s:
                    break
                else:
                    literals += 1
            else:
                if best is None or literals > best[0]:
                    best = (literals, template)
        return best[1] if best else None

    def resolve(self, node):
        """Follows a local $ref (#/components/...) to what it names."""
        while isinstance(node, dict) and "$ref" in node:
            pointer = node["$ref"]
            if not pointer.startswith("#/"):
                raise ValueError("only local references are supported: " + pointer)
            node = self.document
            for part in pointer[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def schema_error(self, pointer, value):
        """The first error of `value` against the schema at JSON pointer `pointer`, or None.

        The whole document is the root schema with a $ref to the pointer, so every #/components/... reference
        resolves as it does in the document (works with jsonschema 4.10 of Debian 12 and later ones)."""
        validator = self.validators.get(pointer)
        if validator is None:
            root = dict(self.document)
            root["$ref"] = pointer
            validator = self.validators[pointer] = jsonschema.Draft202012Validator(root)
        error = jsonschema.exceptions.best_match(validator.iter_errors(value))
        if error is None:
            return None
        # A oneOf/anyOf failure names the whole value; the deepest error of its branches says what is wrong.
        while error.context:
            branches = [e for e in error.context if e.validator != "unevaluatedProperties"] or error.context
            error = max(branches, key=lambda e: len(e.absolute_path))
        where = "/".join(str(p) for p in error.absolute_path)
        return "at /%s: %s" % (where, error.message[:400])

    def check(self, record):
        """Every way the recorded answer differs from the document, as messages (empty when it fits).

        An answer whose error reason is listed in the document's `x-connection-layer` (413, 431, 408, 503, … that
        the connection layer writes before routing, or before any request: method and path empty) is checked
        against that entry, whatever its path. Two other answers belong to no operation and are checked against their shared components: 404 `unknown_path`
        for a path the server does not have, and 405 `method_not_allowed` for a known path with another method."""
        method = record["method"].lower()
        path = record["path"]
        status = str(record["status"])
        generic = self.generic_answer(record)
        layer = self.document.get("x-connection-layer", {})
        if generic in layer:
            # Written before routing, for any path: the document's entry for the reason says what it must be.
            entry = layer[generic]
            if str(entry["status"]) != status:
                return ["reason %s comes with status %s in x-connection-layer, the server sent %s"
                        % (generic, entry["status"], status)]
            code = json.loads(record["body_latin1"].encode("latin-1"))["error"]["code"]
            if code != entry["code"]:
                return ["reason %s comes with code %s in x-connection-layer, the server sent %s"
                        % (generic, entry["code"], code)]
            return self.check_response(entry["response"]["$ref"], record)
        if not method:
            return ["an answer (%s) to no request that is not one of x-connection-layer's" % status]
        template = self.match(path)
        if template is None:
            if generic == "unknown_path" and status == "404":
                return self.check_response("#/components/responses/NotFound", record)
            return ["path %s is not in the document" % path]
        path_item = self.resolve(self.document["paths"][template])
        if method not in path_item:
            if generic == "method_not_allowed" and status == "405":
                return self.check_response("#/components/responses/MethodNotAllowed", record)
            return ["%s %s is not in the document" % (method.upper(), template)]
        responses = self.resolve(path_item[method]).get("responses", {})
        if status not in responses:
            return ["status %s of %s %s is not in the document" % (status, method.upper(), template)]
        if "$ref" in responses[status]:
            return self.check_response(responses[status]["$ref"], record)
        escaped = template.replace("~", "~0").replace("/", "~1")
        return self.check_response("#/paths/%s/%s/responses/%s" % (escaped, method, status), record)

    @staticmethod
    def generic_answer(record):
        """The error reason of a recorded answer (None when its body is not the error envelope)."""
        try:
            return json.loads(record.get("body_latin1", "").encode("latin-1"))["error"]["reason"]
        except (ValueError, KeyError, TypeError):
            return None

    def check_response(self, base, record):
        """Checks one answer against the response object at JSON pointer `base`."""
        response = self.resolve({"$ref": base})
        problems = []
        headers = record.get("headers", {})
        for name, declared in response.get("headers", {}).items():
            header = self.resolve(declared)
            header_pointer = declared["$ref"] if "$ref" in declared else base + "/headers/" + name
            value = headers.get(name.lower())
            if value is None:
                if header.get("required"):
                    problems.append("header %s is missing" % name)
                continue
            schema = self.resolve(header.get("schema", {}))
            typed = value
            if schema.get("type") == "integer":
                try:
                    typed = int(value)
                except ValueError:
                    pass
            message = self.schema_error(header_pointer + "/schema", typed)
            if message:
                problems.append("header %s: %s" % (name, message))
        body = record.get("body_latin1", "").encode("latin-1")
        content = response.get("content")
        if not content:
            if body:
                problems.append("the document says no body, the server sent %d bytes" % len(body))
            return problems
        media = headers.get("content-type", "").split(";")[0].strip().lower()
        if media not in content:
            problems.append("content type %r is not one of %s" % (media, ", ".join(content)))
            return problems
        if media != "application/json" or not body:
            return problems
        try:
            value = json.loads(body.decode("utf-8"))
        except ValueError as e:
            return problems + ["the body is not JSON: %s" % e]
        media_key = media.replace("/", "~1")
        pointer = base + "/content/" + media_key + "/schema"
        message = self.schema_error(pointer, value)
        if message:
            problems.append("body " + message)
        return problems


def load(path):
    with open(path, encoding="utf-8") as f:
        return Contract(yaml.safe_load(f))


def check_directory(contract, directory):
    records = []
    for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
        if not name.endswith(".jsonl"):
            continue
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    try:
                        records.append(json.loads(line))
                    except ValueError:
                        print("%s:%d: unreadable record (a suite still running?)" % (name, number))
                        return 1
    if not records:
        print("SKIPPED: no recorded exchanges in %s; run the API suites first (e.g. ctest -R salesapi)" % directory)
        return 77
    failures = {}
    checked = {}
    for record in records:
        problems = contract.check(record)
        key = (record["method"], contract.match(record["path"]) or record["path"], record["status"])
        checked[key] = checked.get(key, 0) + 1
        for problem in problems:
            failures.setdefault((key, problem), []).append(record)
    suites = sorted({r["suite"] for r in records})
    print("api_contract: %d responses from %d suites (%s), %d method/route/status combinations"
          % (len(records), len(suites), " ".join(suites), len(checked)))
    for ((method, template, status), problem), seen in sorted(failures.items(), key=lambda item: str(item[0])):
        first = seen[0]
        print("MISMATCH %s %s -> %s: %s" % (method, first["path"], status, problem))
        print("    %d time(s); first in %s::%s(%s)" % (len(seen), first["suite"], first["function"], first["tag"]))
        print("    body: %s" % first.get("body_latin1", "")[:300])
    if failures:
        print("api_contract: %d mismatch(es) between the server and docs/api/openapi.yaml" % len(failures))
        return 1
    print("api_contract: every response fits docs/api/openapi.yaml")
    return 0


def self_test(contract):
    """A right answer passes; a wrong type, an unknown route, an undocumented status and a missing header fail."""

    def record(method, path, status, body, headers=None):
        all_headers = {"content-type": "application/json", "x-request-id": "r1", "cache-control": "no-store"}
        all_headers.update(headers or {})
        return {"suite": "self-test", "function": "-", "tag": "", "method": method, "path": path, "status": status,
                "headers": all_headers, "body_latin1": json.dumps(body)}

    wallet = {"data": {"entity": "wallet", "mode": "test", "balance": "\u20b9100.00", "balance_paise": 10000}}
    wrong = {"data": dict(wallet["data"], balance_paise="10000")}
    error = {"error": {"code": "NOT_FOUND_ERROR", "description": "x", "field": None, "reason": "unknown_path"}}
    cases = [
        ("a right answer", record("GET", "/api/v1/wallet", 200, wallet), True),
        ("a field of the wrong type", record("GET", "/api/v1/wallet", 200, wrong), False),
        ("a missing required field", record("GET", "/api/v1/wallet", 200, {"data": {"entity": "wallet"}}), False),
        ("a route the document lacks", record("GET", "/api/v1/nowhere", 200, wallet), False),
        ("the unknown-path answer", record("GET", "/api/v1/nowhere", 404, error), True),
        ("a status the document lacks", record("GET", "/api/v1/wallet", 418, error), False),
        ("a missing X-Request-Id", record("GET", "/api/v1/wallet", 200, wallet, {"x-request-id": None}), False),
    ]

    def raw(method, path, status, body, headers):
        """An answer read off a raw socket (tests/support/rawexchangelog.h): the connection layer's own headers."""
        rec = record(method, path, status, body, headers)
        rec["via"] = "raw"
        for name in [n for n, v in rec["headers"].items() if v is None]:
            del rec["headers"][name]
        return rec

    def layer_error(code, reason):
        return {"error": {"code": code, "description": "x", "field": None, "reason": reason}}

    closing = {"cache-control": None, "connection": "close"}
    too_large = layer_error("PAYLOAD_TOO_LARGE", "body_too_large")
    timeout = layer_error("BAD_REQUEST_ERROR", "header_timeout")
    refused = layer_error("RATE_LIMIT_ERROR", "too_many_connections")
    cases += [
        ("a raw 413 of the connection layer", raw("POST", "/api/v1/wallet", 413, too_large, closing), True),
        ("a raw 408 on a path of no operation", raw("GET", "/nowhere", 408, timeout, closing), True),
        ("a raw 503 before any request", raw("", "", 503, refused, dict(closing, **{"retry-after": "1"})), True),
        ("a raw 503 without Retry-After", raw("", "", 503, refused, closing), False),
        ("a raw 413 without Connection: close", raw("POST", "/api/v1/wallet", 413, too_large,
                                                     {"cache-control": None}), False),
        ("a raw 413 with another code", raw("POST", "/api/v1/wallet", 413,
                                            layer_error("BAD_REQUEST_ERROR", "body_too_large"), closing), False),
        ("a connection-layer reason with another status", raw("GET", "/healthz", 400, timeout, closing), False),
        ("a raw answer to no request outside x-connection-layer",
         raw("", "", 400, layer_error("BAD_REQUEST_ERROR", "bad_request"), closing), False),
        ("a raw route answer of the wrong type", raw("GET", "/api/v1/wallet", 200, wrong, {}), False),
        ("a raw route answer that fits", raw("GET", "/api/v1/wallet", 200, wallet, {}), True),
    ]
    failed = 0
    for name, rec, should_pass in cases:
        problems = contract.check(rec)
        ok = (not problems) == should_pass
        failed += not ok
        print("%s %s: %s" % ("ok  " if ok else "FAIL", name, "; ".join(problems) or "accepted"))
    print("%d passed, %d failed" % (len(cases) - failed, failed))
    return 1 if failed else 0


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    contract = load(argv[1])
    if argv[2] == "--self-test":
        return self_test(contract)
    return check_directory(contract, argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
