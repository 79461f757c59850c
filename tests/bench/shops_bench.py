#!/usr/bin/env python3
"""Issue 30, a distributor with 5,000 shops and a million sales (run by shops_bench.sh).

seed:    fills an SQLite database (made by `rechargedesk keys create`, so migrated, with the distributor's account
         `shop`) with SHOPS shops and SALES live sales spread over them, from 30 days before today (IST) to now, in a
         few SQL statements (recursive CTEs). Everything stays consistent, as the server keeps it: every sale has its
         debit ledger row (and a refund row when FAILED), every shop an opening top-up before the range and weekly
         top-ups inside it, each wallet's balance is its ledger's sum, daily_totals are the per-day rollups of the
         sales (as migration 6 builds them). About one shop in ten was given less than it sold and runs on its credit
         (a negative balance within its credit limit); one in a hundred is suspended. Deterministic: the same counts on
         the same day give the same rows.
measure: asks the running server GET /api/v1/shops (the first page of 100 and all 5,000, by name, by today's sales,
         by balance; the Shops page's first page of 500; a search) and GET /api/v1/shops/{id}/statement for the month
         (JSON and CSV), one request at a time after a warm-up, timing each at the client: first all on one keep-alive
         connection (as the terminal asks), then each on a new connection (as curl asks); prints p50, p90, p99, the
         slowest and the answer's size, with the load average. Exits 1 when an answer is wrong (a status other than
         200, a wrong count, a statement whose lines do not add up).
"""
import argparse
import base64
import datetime
import http.client
import json
import os
import random
import sqlite3
import sys
import time
import urllib.parse

DAY_MS = 86_400_000
IST_MS = 19_800_000
MOBILE = [("RJ", 150, 40), ("AT", 200, 33), ("VI", 350, 20), ("BS", 400, 7)]
DTH = [("TS", 300, 30), ("DT", 350, 20), ("AD", 300, 20), ("VC", 350, 13), ("SD", 350, 12), ("BT", 400, 5)]
MOBILE_RUPEES = [19, 29, 49, 99, 155, 179, 199, 209, 239, 249, 265, 299, 319, 349, 399, 479, 579, 666, 719, 859]
DTH_RUPEES = [153, 200, 250, 299, 350, 400, 499, 599, 1000, 1500]
CIRCLES = ["AP", "BR", "DL", "GJ", "KA", "KL", "MH", "MP", "MU", "RJ", "TN", "UE", "UW", "WB"]
TOWNS = ["Pune", "Nashik", "Indore", "Patna", "Surat", "Mysuru", "Kochi", "Jaipur", "Madurai", "Howrah", "Agra"]


def ist_midnight(ms):
    return (ms + IST_MS) // DAY_MS * DAY_MS - IST_MS


def weighted_case(column, choices, value_index):
    """A CASE picking choices[k][value_index] by `column` (0..99) against the cumulative weights (which sum to 100)."""
    parts, total = [], 0
    for choice in choices:
        total += choice[2]
        parts.append(f"WHEN {column} < {total} THEN {sql_value(choice[value_index])}")
    return "CASE " + " ".join(parts) + f" ELSE {sql_value(choices[-1][value_index])} END"


def list_case(column, values):
    return "CASE " + " ".join(f"WHEN {column} = {k} THEN {sql_value(v)}" for k, v in enumerate(values)) + " END"


def sql_value(value):
    return f"'{value}'" if isinstance(value, str) else str(value)


def seed(args):
    db = sqlite3.connect(args.db)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("PRAGMA cache_size=-2000000")  # 2 GB of page cache: the indexes are filled in random account order
    db.execute("PRAGMA temp_store=MEMORY")
    if db.execute("SELECT COUNT(*) FROM shops").fetchone()[0] >= args.shops:
        print("already seeded")
        return
    now = int(time.time() * 1000)
    today = ist_midnight(now)
    start = today - 30 * DAY_MS  # the range: the 30 days before today and today so far
    span = now - start
    started = time.time()
    cur = db.cursor()
    cur.execute("BEGIN")
    # The shops: accounts with a live wallet (empty so far) and a test wallet with the sandbox opening credit, as
    # ApiKeyService::create makes them, and their shops rows (migration 20).
    cur.execute(f"""
        INSERT INTO accounts (name, created_at)
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {args.shops})
        SELECT printf('Shop %05d', i), {start - 40 * DAY_MS} FROM n""")
    cur.execute("CREATE TEMP TABLE seeded (idx INTEGER PRIMARY KEY, account_id INTEGER NOT NULL)")
    cur.execute("INSERT INTO seeded (idx, account_id) SELECT CAST(substr(name, 6) AS INTEGER) - 1, id FROM accounts"
                " WHERE name GLOB 'Shop [0-9][0-9][0-9][0-9][0-9]'")
    cur.execute("INSERT INTO wallets (account_id, mode, balance) SELECT account_id, 'live', 0 FROM seeded")
    cur.execute("INSERT INTO wallets (account_id, mode, balance) SELECT account_id, 'test', 1000000 FROM seeded")
    cur.execute(f"""INSERT INTO wallet_ledger (account_id, mode, amount, kind, transaction_id, note, actor, created_at)
        SELECT account_id, 'test', 1000000, 'opening', NULL, 'sandbox opening credit', 'system', {start - 40 * DAY_MS}
        FROM seeded ORDER BY idx""")
    cur.execute(f"""
        INSERT INTO shops (account_id, owner, mobile, circle_code, gstin, state, suspended_reason, suspended_at,
                           credit_limit, last_contact_at, created_by, created_at, updated_at)
        SELECT account_id,
               'Owner ' || (idx + 1) || ' ' || {list_case(f'(idx % {len(TOWNS)})', TOWNS)},
               printf('9%09d', (idx * 7919 + 13) % 1000000000),
               {list_case(f'(idx % {len(CIRCLES)})', CIRCLES)},
               '',
               CASE WHEN idx % 100 = 99 THEN 'suspended' ELSE 'active' END,
               CASE WHEN idx % 100 = 99 THEN 'dues unpaid' END,
               CASE WHEN idx % 100 = 99 THEN {now - DAY_MS} END,
               0,
               CASE WHEN idx % 7 = 6 THEN NULL ELSE {now} - (idx * 104729) % {7 * DAY_MS} END,
               'seed', {start - 40 * DAY_MS}, {start - 40 * DAY_MS}
        FROM seeded""")
    # The sales: shop, time, operator, amount and outcome from a hash of the row number (an LCG chain, high bits).
    # The first shops sell about twice as much as the last ones.
    n = args.shops
    cur.execute(f"""
        CREATE TEMP TABLE draws AS
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {args.sales}),
        h AS (SELECT i, (i * 2654435761 + 1013904223) % 4294967296 AS h1 FROM n),
        h2 AS (SELECT i, h1, (h1 * 69069 + 1) % 4294967296 AS h2 FROM h),
        h3 AS (SELECT i, h1, h2, (h2 * 69069 + 1) % 4294967296 AS h3 FROM h2),
        h4 AS (SELECT i, h1, h2, h3, (h3 * 69069 + 1) % 4294967296 AS h4 FROM h3)
        SELECT i,
               ((h1 / 16) % {n * 1024}) * ((h1 / 16) % {n * 1024} + {n * 1024}) / {2 * n * 1024} / 1024 AS shop,
               {start} + (((h2 / 65536) * 65536 + h3 / 65536) % {span}) AS at,
               (h4 / 65536) % 100 AS kind,
               (h4 / 256) % 100 AS op,
               (h3 / 256) % 20 AS price,
               (h2 / 256) % 1000 AS outcome,
               h1 % 1000000000 AS num
        FROM h4""")
    bill_mobile = list_case("price", [r * 100 for r in MOBILE_RUPEES])
    bill_dth = list_case("price % 10", [r * 100 for r in DTH_RUPEES])
    cur.execute(f"""
        INSERT INTO transactions (account_id, mode, type, operator_code, number, bill_amount, discount, paid,
                                  customer_email, status, redeem_code, reference_id, fingerprint, key_id, created_at,
                                  updated_at, clerk, circle_code)
        SELECT account_id, 'live', type, code, number, bill, bill * bp / 10000, bill - bill * bp / 10000, '',
               status, '', CASE WHEN i % 4 = 0 THEN 'POS-' || i END, 'seed', 'seed', at, at + 30000, '', circle
        FROM (SELECT d.i, s.account_id, d.at,
                     CASE WHEN d.kind < 80 THEN 'MOBILE' ELSE 'DTH' END AS type,
                     CASE WHEN d.kind < 80 THEN {weighted_case('d.op', MOBILE, 0)}
                          ELSE {weighted_case('d.op', DTH, 0)} END AS code,
                     CASE WHEN d.kind < 80 THEN {weighted_case('d.op', MOBILE, 1)}
                          ELSE {weighted_case('d.op', DTH, 1)} END AS bp,
                     CASE WHEN d.kind < 80 THEN {bill_mobile} ELSE {bill_dth} END AS bill,
                     CASE WHEN d.kind < 80 THEN printf('9%09d', d.num) ELSE printf('1%09d', d.num) END AS number,
                     CASE WHEN d.kind < 80 THEN {list_case(f'(d.num % {len(CIRCLES)})', CIRCLES)} END AS circle,
                     CASE WHEN d.outcome < 35 THEN 'FAILED' ELSE 'SUCCESS' END AS status
              FROM draws d JOIN seeded s ON s.idx = d.shop)
        ORDER BY at, i""")
    # Top-ups: per shop an opening one the day before the range (30 % of what it sells in the range) and one every
    # 7 days inside it (5 × 15 %); every tenth shop gets 10 % less in all and lives on a credit limit of 15 %.
    cur.execute("""CREATE TEMP TABLE spend AS SELECT account_id, SUM(paid) AS paid FROM transactions
                   WHERE key_id = 'seed' AND mode = 'live' AND status = 'SUCCESS' GROUP BY account_id""")
    cur.execute("""UPDATE shops SET credit_limit = COALESCE((SELECT (sp.paid * 15 / 100) / 100000 * 100000 + 100000
                                                    FROM spend sp WHERE sp.account_id = shops.account_id), 0)
                   WHERE account_id IN (SELECT account_id FROM seeded WHERE idx % 10 = 3)""")
    topups = [(start - DAY_MS + 10 * 3_600_000, 30)] + [(start + k * 7 * DAY_MS + 11 * 3_600_000, 15)
                                                        for k in range(5)]
    topup_rows = " UNION ALL ".join(f"SELECT {at} AS at, {share} AS share, {k} AS k" for k, (at, share) in
                                    enumerate(topups))
    # Everything goes into the ledger in time order (ids rise with time, as at a real counter).
    cur.execute(f"""
        INSERT INTO wallet_ledger (account_id, mode, amount, kind, transaction_id, note, actor, created_at)
        SELECT account_id, 'live', amount, kind, transaction_id, note, actor, at FROM (
            SELECT account_id, -paid AS amount, 'debit' AS kind, id AS transaction_id, '' AS note, '' AS actor,
                   created_at AS at, 1 AS ord, id AS tie
            FROM transactions WHERE key_id = 'seed' AND mode = 'live'
            UNION ALL
            SELECT account_id, paid, 'refund', id, 'refund of failed transaction', 'system', created_at + 30000, 2,
                   id
            FROM transactions WHERE key_id = 'seed' AND mode = 'live' AND status = 'FAILED'
            UNION ALL
            SELECT s.account_id,
                   (sp.paid * t.share / 100 * CASE WHEN s.idx % 10 = 3 THEN 90 ELSE 108 END / 100) / 100 * 100 + 100,
                   'topup', NULL,
                   'top-up by UPI, ref ' || printf('%012d', (s.idx * 6151 + t.k * 131071) % 1000000000000),
                   'seed', t.at, 0, s.idx
            FROM seeded s JOIN spend sp ON sp.account_id = s.account_id CROSS JOIN ({topup_rows}) t
            WHERE t.at <= {now})
        ORDER BY at, ord, tie""")
    cur.execute("""UPDATE wallets SET balance = (SELECT COALESCE(SUM(l.amount), 0) FROM wallet_ledger l
                                                 WHERE l.account_id = wallets.account_id AND l.mode = wallets.mode)
                   WHERE account_id IN (SELECT account_id FROM seeded)""")
    cur.execute("""
        INSERT INTO daily_totals (account_id, mode, ist_day, type, operator_code, status, tx_count, bill_amount,
                                  discount, paid)
        SELECT account_id, mode, (created_at + 19800000) / 86400000, type, operator_code, status, COUNT(*),
               SUM(bill_amount), SUM(discount), SUM(paid)
        FROM transactions WHERE key_id = 'seed'
        GROUP BY account_id, mode, (created_at + 19800000) / 86400000, type, operator_code, status""")
    db.commit()  # no ANALYZE: the server never runs it, so the planner sees what it sees on a real database
    count = db.execute("SELECT COUNT(*) FROM transactions WHERE key_id = 'seed'").fetchone()[0]
    ledger = db.execute("SELECT COUNT(*) FROM wallet_ledger").fetchone()[0]
    wrong = db.execute("""SELECT COUNT(*) FROM wallets w WHERE w.balance <> (SELECT COALESCE(SUM(amount), 0)
                          FROM wallet_ledger l WHERE l.account_id = w.account_id AND l.mode = w.mode)""").fetchone()[0]
    negative = db.execute("SELECT COUNT(*) FROM wallets WHERE mode = 'live' AND balance < 0").fetchone()[0]
    print(f"seeded {args.shops} shops, {count} sales, {ledger} ledger rows in {time.time() - started:.1f} s;"
          f" {negative} shops below zero; wallets not equal to their ledger: {wrong}")
    db.close()
    if wrong:
        sys.exit(1)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def unwrap(body):
    """The entity of an answer: the API wraps it in {"data": …}."""
    document = json.loads(body)
    return document.get("data", document)


def load():
    return " ".join(open("/proc/loadavg").read().split()[:3])


def rupees(text):
    """'₹1,234.50' or '-₹12.00' -> paise."""
    negative = text.startswith("-")
    digits = text.replace("-", "").replace("₹", "").replace(",", "")
    whole, _, fraction = digits.partition(".")
    value = int(whole) * 100 + int((fraction + "00")[:2])
    return -value if negative else value


def measure(args):
    url = urllib.parse.urlparse(args.url)
    auth = "Basic " + base64.b64encode(f"{args.key_id}:{args.key_secret}".encode()).decode()
    connection = None
    fresh = False  # a new connection for every request (as curl), else one keep-alive connection (as the terminal)

    def get(path):
        nonlocal connection
        if connection is None or fresh:
            if connection is not None:
                connection.close()
            connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
        started = time.perf_counter()
        connection.request("GET", path, headers={"Authorization": auth})
        response = connection.getresponse()
        body = response.read()
        return (time.perf_counter() - started) * 1000.0, response.status, body

    wrong = 0

    def check(condition, what):
        nonlocal wrong
        if not condition:
            wrong += 1
            if wrong <= 5:
                print(f"WRONG: {what}", file=sys.stderr)

    def run(label, paths, repeat, verify):
        for path in paths[:3]:  # warm-up: the connection, the statements, the pages
            get(path)
        times, sizes = [], []
        before = load()
        for k in range(repeat):
            path = paths[k % len(paths)]
            ms, status, body = get(path)
            check(status == 200, f"{path} answered {status}: {body[:200]!r}")
            if status == 200 and k < len(paths):
                verify(path, body)
            times.append(ms)
            sizes.append(len(body))
        print(f"{label:<44} n={repeat:<4} p50 {percentile(times, 0.5):7.1f} ms  p90 {percentile(times, 0.9):7.1f}"
              f"  p99 {percentile(times, 0.99):7.1f}  max {max(times):7.1f}  {sum(sizes) / len(sizes) / 1024:8.1f} KiB"
              f"  load {before} -> {load()}")

    shops = args.shops

    def verify_list(expected):
        expected = min(expected, ids_count)

        def verify(path, body):
            data = unwrap(body)
            check(len(data["items"]) == expected, f"{path}: {len(data['items'])} items, not {expected}")
        return verify

    # The shop ids, for the statements: every page of 100 would do, but one call is enough.
    _, status, body = get(f"/api/v1/shops?limit={shops}&sort=sales&order=desc")
    if status != 200:
        print(f"GET /api/v1/shops answered {status}: {body[:300]!r}", file=sys.stderr)
        sys.exit(1)
    listed = unwrap(body)["items"]
    ids = [item["id"] for item in listed]
    ids_count = len(ids)
    print(f"shops listed {len(ids)}; busiest today: {listed[0]['name']} with {listed[0]['today']['sales']} sales")
    for fresh in (False, True):
        print(f"== {'a new connection per request' if fresh else 'one keep-alive connection'}; load {load()}")
        measure_all(args, run, check, verify_list, ids)
    print(f"load after: {load()}")
    if wrong:
        print(f"{wrong} wrong answers", file=sys.stderr)
        sys.exit(1)


def measure_all(args, run, check, verify_list, ids):
    """Every measurement once: the list's first page (100) and the whole list by name, sales and balance, the first
    page the Shops page asks for (500), a search, the month's statement of random shops and of the busiest today, and
    as CSV."""
    shops = args.shops
    for sort in ("name", "sales", "balance"):
        order = "asc" if sort == "name" else "desc"
        run(f"GET /shops?limit=100&sort={sort}", [f"/api/v1/shops?limit=100&sort={sort}&order={order}"],
            args.repeat, verify_list(100))
        run(f"GET /shops?limit={shops}&sort={sort}", [f"/api/v1/shops?limit={shops}&sort={sort}&order={order}"],
            max(10, args.repeat // 10), verify_list(shops))
    run("GET /shops?limit=500 (the Shops page's)", ["/api/v1/shops?limit=500&sort=name&order=asc"],
        max(20, args.repeat // 4), verify_list(500))
    run("GET /shops?q=pune&limit=100", ["/api/v1/shops?q=pune&limit=100"], args.repeat, lambda path, body: None)

    today = datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=5, minutes=30))).date()
    first = today - datetime.timedelta(days=30)
    rng = random.Random(30)
    sample = rng.sample(ids, min(len(ids), args.repeat))
    paths = [f"/api/v1/shops/{i}/statement?from={first}&to={today}&limit=5000" for i in sample]

    def verify_statement(path, body):
        data = unwrap(body)
        total = rupees(data["opening_balance"]) + sum(rupees(line["amount"]) for line in data["lines"])
        check(total == rupees(data["closing_balance"]), f"{path}: opening + lines != closing")
        check(data["line_count"] == len(data["lines"]), f"{path}: line_count {data['line_count']}")

    run(f"GET /shops/{{id}}/statement {first}..{today}", paths, args.repeat, verify_statement)
    busiest = [f"/api/v1/shops/{ids[0]}/statement?from={first}&to={today}&limit=5000"]
    run("  the busiest shop today", busiest, max(20, args.repeat // 5), verify_statement)
    csv_paths = [p.replace("&limit=5000", "&format=csv") for p in paths]
    run("GET /shops/{id}/statement?format=csv", csv_paths, args.repeat, lambda path, body: None)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("seed")
    s.add_argument("--db", required=True)
    s.add_argument("--shops", type=int, default=5000)
    s.add_argument("--sales", type=int, default=1_000_000)
    m = sub.add_parser("measure")
    m.add_argument("--url", required=True)
    m.add_argument("--key-id", required=True)
    m.add_argument("--key-secret", required=True)
    m.add_argument("--shops", type=int, default=5000)
    m.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    if args.command == "seed":
        seed(args)
    else:
        measure(args)


if __name__ == "__main__":
    main()
