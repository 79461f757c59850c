#!/usr/bin/env python3
"""Issue 29: the latency of GET /api/v1/numbers/{phone_number} over HTTP (run by number_lookup_bench.sh).

Reads the numbers the seeded shop sold to from its SQLite file (read only), prints the query plans of the lookup's
three queries, then asks the server about a random sample of them (each must answer 200 with an operator) and about
numbers never sold (each must answer 404 number_unknown) on one keep-alive connection, one request at a time, after a
warm-up, and prints the latency percentiles in milliseconds. Exits 1 when an answer is wrong.
"""
import argparse
import base64
import http.client
import json
import random
import sqlite3
import statistics
import sys
import time
import urllib.parse

SOLD = ("FROM transactions WHERE account_id = ? AND mode = 'test' AND number = ?"
        " AND status = 'SUCCESS' AND type = 'MOBILE'")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--key-secret", required=True)
    parser.add_argument("--db", required=True)
    parser.add_argument("--lookups", type=int, default=2000)
    args = parser.parse_args()

    db = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    account = db.execute("SELECT id FROM accounts ORDER BY id LIMIT 1").fetchone()[0]
    sold = [row[0] for row in db.execute(
        "SELECT DISTINCT number FROM transactions WHERE type = 'MOBILE' AND status = 'SUCCESS' AND mode = 'test'")]
    rows = db.execute("SELECT COUNT(*) FROM transactions").fetchone()[0]
    print(f"transactions {rows}, numbers sold to {len(sold)}")
    sample_number = sold[0]
    for name, sql in (("latest", "SELECT operator_code, circle_code, created_at " + SOLD +
                       " ORDER BY created_at DESC, id DESC LIMIT 1"),
                      ("count", "SELECT COUNT(*) " + SOLD),
                      ("latest circle", "SELECT circle_code " + SOLD +
                       " AND circle_code IS NOT NULL ORDER BY created_at DESC, id DESC LIMIT 1")):
        plan = "; ".join(row[-1] for row in db.execute("EXPLAIN QUERY PLAN " + sql, (account, sample_number)))
        print(f"plan {name}: {plan}")
    known = set(sold)
    db.close()

    rng = random.Random(29)
    asked = rng.sample(sold, min(args.lookups, len(sold)))
    never = []
    while len(never) < max(1, args.lookups // 4):
        candidate = "9" + "".join(rng.choice("0123456789") for _ in range(9))
        if candidate not in known:
            never.append(candidate)

    url = urllib.parse.urlparse(args.url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    auth = "Basic " + base64.b64encode(f"{args.key_id}:{args.key_secret}".encode()).decode()

    def lookup(number):
        started = time.perf_counter()
        connection.request("GET", f"/api/v1/numbers/{number}", headers={"Authorization": auth})
        response = connection.getresponse()
        body = response.read()
        return (time.perf_counter() - started) * 1000.0, response.status, body

    for number in asked[:200]:  # warm-up: the connection, the statements, the pages of the index
        lookup(number)
    wrong = 0
    for label, numbers, status in (("sold", asked, 200), ("never sold", never, 404)):
        times = []
        for number in numbers:
            ms, got, body = lookup(number)
            times.append(ms)
            answer = json.loads(body)
            if got != status or (status == 200 and not answer["data"]["operator_code"]) or (
                    status == 404 and answer["error"]["reason"] != "number_unknown"):
                wrong += 1
        print(f"{label}: {len(times)} lookups, p50 {percentile(times, 0.5):.2f} ms, "
              f"p90 {percentile(times, 0.9):.2f} ms, p99 {percentile(times, 0.99):.2f} ms, "
              f"max {max(times):.2f} ms, mean {statistics.fmean(times):.2f} ms")
    if wrong:
        print(f"{wrong} wrong answers", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
