#!/usr/bin/env python3
"""Issue 16's proof: sales through haproxy while two of three servers are killed with -9 (CTest cluster_failover).

Run inside tests/tools/cluster.sh, which starts the cluster and exports CLUSTER_* (see there):

    tests/tools/cluster.sh build/app/rechargedesk python3 tests/tools/cluster_failover.py

What it does:
  1. starts a webhook receiver (this file run as `receive`, its own process) that records every delivery by its
     `webhook-id`, and points the test webhook endpoint at it; tops up the test wallet;
  2. sells from WORKERS client threads through haproxy for LOAD_S seconds: mobile, DTH and voucher sales of every
     sandbox outcome (SUCCESS at once, FAILED at once, PENDING then SUCCESS, PENDING then FAILED), each with its own
     reference_id. A request that fails (no answer, 502/503/504) is counted and sent again with the same
     reference_id and body until it is answered: that is what a client of the API does, and the answer is then the
     original sale, never a second one;
  3. `kill -9` of server 1 at KILL1_S and of server 2 at KILL2_S seconds into the load;
  4. waits (at most SETTLE_BOUND_S, generous: settlement timers and webhook deliveries of a dead server are taken
     over when their lease runs out) until every sale answered PENDING is settled and its webhook received;
  5. checks on the database (psql) and at the receiver, and prints a report:
     - every acknowledged sale is in the database exactly once (by reference_id), as answered (transaction_id);
     - no sale that nobody asked for (every row has one of the driver's reference_ids);
     - every sale answered PENDING is settled exactly once, to the sandbox's outcome: one debit, one refund if
       FAILED, no settlement row left, one webhook event in the outbox;
     - the receiver got one webhook-id per settled sale with its final status (a repeat of an id is allowed and
       counted, a loss is not), and none for a sale that never was PENDING;
     - every wallet equals the sum of its ledger;
     - the load kept answering: errors only in the seconds after a kill, at most one per client thread and kill (the
       requests in flight on the killed server), and no gap of more than MAX_GAP_S seconds without an answer.

`cluster_failover.py quiet` (CTest cluster_quiet_takeover, two servers) checks the same after a kill in a quiet
cluster instead: one sale of each PENDING outcome made on server 1 directly, server 1 killed with -9 before any is
due, then no traffic at all: server 2 must find the dead server's settlements and webhooks by itself within
SETTLE_BOUND_S (issue 16: "a dead server's claims are taken over by another within the lease time").

Exit 0 when everything holds, 1 otherwise (each failed check is printed as FAIL: ...).
"""

import base64
import collections
import http.client
import http.server
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid

WORKERS = int(os.environ.get("CLUSTER_WORKERS", "12"))
LOAD_S = float(os.environ.get("CLUSTER_LOAD_S", "30"))
KILL1_S = float(os.environ.get("CLUSTER_KILL1_S", "8"))
KILL2_S = float(os.environ.get("CLUSTER_KILL2_S", "16"))
SETTLE_BOUND_S = float(os.environ.get("CLUSTER_SETTLE_BOUND_S", "120"))
# An error counts as the killed server's when it comes at most this long after a kill (haproxy's checks mark a
# server down within about 2 s; the requests in flight there fail at once).
KILL_WINDOW_S = 10.0
MAX_GAP_S = 5.0
WEBHOOK_PASSWORD = "cluster-failover"

# Every sandbox outcome of every product (docs/api-guide.md, "Sandbox outcomes"),
# as (kind, path, body maker, answered, final).
MOBILE = "/api/v1/recharge/mobile/initiate-transaction"
DTH = "/api/v1/recharge/dth/initiate-transaction"
VOUCHER = "/api/v1/voucher/appstore/initiate-transaction"


def mobile(ending, _tag):
    return lambda: {"phone_number": "98%04d%s" % (random.randrange(10000), ending), "amount": "10",
                    "operator_code": "AT"}


def dth(ending, _tag):
    return lambda: {"number": "10%04d%s" % (random.randrange(10000), ending), "amount": "300", "operator_code": "TS"}


def voucher(_ending, tag):
    return lambda: {"amount": "100", "customer_email": "asha%s@example.com" % tag}


# name, number ending (mobile, DTH), e-mail tag (voucher), status answered at once, final status.
SANDBOX = [
    ("success", "5678", "", "SUCCESS", "SUCCESS"),
    ("failed", "0000", "+failed", "FAILED", "FAILED"),
    ("pending", "1111", "+pending", "PENDING", "SUCCESS"),
    ("pendingfail", "2222", "+pendingfail", "PENDING", "FAILED"),
]
OUTCOMES = [("%s %s" % (product, name), path, maker(ending, tag), answered, final)
            for product, path, maker in (("mobile", MOBILE, mobile), ("dth", DTH, dth), ("voucher", VOUCHER, voucher))
            for name, ending, tag, answered, final in SANDBOX]


# ---------------------------------------------------------------------------------------------------- the receiver
def receive(port_file, log_file):
    """The webhook receiver: answers 204 to every POST and appends {webhook_id, transaction_id, status, password}
    to log_file (one JSON line per delivery, repeats included); writes its port to port_file once listening."""
    lock = threading.Lock()
    out = open(log_file, "a", buffering=1)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                data = json.loads(body)["data"]
                record = {"webhook_id": self.headers.get("webhook-id"),
                          "transaction_id": data["payload"]["transaction_id"],
                          "status": data["payload"]["transaction_status"],
                          "password": data.get("webhook_password")}
            except (ValueError, KeyError, TypeError) as e:
                record = {"webhook_id": self.headers.get("webhook-id"), "error": str(e)}
            with lock:
                out.write(json.dumps(record) + "\n")
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server.serve_forever()


# ------------------------------------------------------------------------------------------------------ the checks
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what, flush=True)
    return ok


def psql(sql):
    """Rows of `sql` on the cluster's database, each a list of strings."""
    out = subprocess.run(["psql", "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1",
                          os.environ["CLUSTER_DATABASE"], "-c", sql],
                         check=True, capture_output=True, text=True).stdout
    return [line.split("\t") for line in out.splitlines() if line]


class Api:
    """One keep-alive HTTP connection with the test key, to haproxy or to the server at base_url."""

    def __init__(self, base_url=None):
        url = urllib.parse.urlsplit(base_url or os.environ["CLUSTER_URL"])
        self.host, self.port = url.hostname, url.port
        self.auth = "Basic " + base64.b64encode(os.environ["CLUSTER_KEY"].encode()).decode()
        self.conn = None

    def call(self, method, path, body=None):
        """(status, parsed JSON or None); raises OSError / http.client.HTTPException when there is no answer."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=40)
        headers = {"Authorization": self.auth}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        if response.getheader("Connection", "").lower() == "close":
            self.conn.close()
            self.conn = None
        try:
            return response.status, json.loads(raw) if raw else None
        except ValueError:
            return response.status, None


# -------------------------------------------------------------------------------------------------------- the load
class Load:
    def __init__(self):
        self.lock = threading.Lock()
        self.start = time.monotonic()
        self.acks = {}  # reference_id -> {kind, answered, final, transaction_id, status, at}
        self.sent = {}  # reference_id -> kind (every reference_id ever sent)
        self.errors = []  # (seconds into the load, kind of error)
        self.unexpected = []  # answers that are neither a sale nor a failover error
        self.given_up = []  # reference_ids never answered

    def now(self):
        return time.monotonic() - self.start

    def worker(self, index):
        api = Api()
        rng = random.Random(index)
        n = index
        while self.now() < LOAD_S:
            kind, path, make, answered, final = OUTCOMES[n % len(OUTCOMES)]
            n += rng.randrange(1, 4)
            body = make()
            reference_id = "cf-" + uuid.uuid4().hex[:20]
            body["reference_id"] = reference_id
            with self.lock:
                self.sent[reference_id] = kind
            for attempt in range(40):
                try:
                    status, answer = api.call("POST", path, body)
                except (OSError, http.client.HTTPException) as e:
                    status, answer = None, type(e).__name__
                if status in (200, 201):
                    data = answer["data"]
                    with self.lock:
                        self.acks[reference_id] = {"kind": kind, "answered": answered, "final": final,
                                                   "transaction_id": data["transaction_id"],
                                                   "status": data["transaction_status"], "at": self.now()}
                    break
                if status in (None, 502, 503, 504):
                    with self.lock:
                        self.errors.append((self.now(), str(status if status else answer)))
                    time.sleep(0.2)
                    continue
                with self.lock:
                    self.unexpected.append((kind, status, answer))
                break
            else:
                with self.lock:
                    self.given_up.append(reference_id)


def wait_for(what, condition, bound_s):
    """Polls condition() once a second until it is true or bound_s passed; returns how long it took (or None)."""
    start = time.monotonic()
    while time.monotonic() - start < bound_s:
        if condition():
            return time.monotonic() - start
        time.sleep(1)
    check(condition(), "%s within %.0f s" % (what, bound_s))
    return None


def main(mode):
    work = os.environ["CLUSTER_WORK"]
    pids = os.environ["CLUSTER_SERVER_PIDS"].split()
    if len(pids) < (2 if mode == "quiet" else 3):
        print("cluster_failover %s needs more servers (cluster.sh --servers N)" % mode, file=sys.stderr)
        return 2

    # The receiver, its endpoint, and money for the load.
    port_file, log_file = os.path.join(work, "receiver.port"), os.path.join(work, "receiver.log")
    receiver = subprocess.Popen([sys.executable, __file__, "receive", port_file, log_file])
    try:
        for _ in range(100):
            if os.path.exists(port_file):
                break
            time.sleep(0.1)
        with open(port_file) as f:
            receiver_port = int(f.read())
        api = Api()
        status, answer = api.call("PUT", "/api/v1/webhook-endpoint",
                                  {"url": "http://127.0.0.1:%d/hooks" % receiver_port,
                                   "webhook_password": WEBHOOK_PASSWORD})
        if not check(status in (200, 201), "PUT /webhook-endpoint answers 200 or 201 (got %s %s)" % (status, answer)):
            return 1
        subprocess.run([os.environ["CLUSTER_BINARY"], "wallet", "topup", "--mode", "test", "--amount", "1000000",
                        "--note", "cluster_failover", "--data-dir", os.environ["CLUSTER_DATA_DIR"],
                        "--database", os.environ["CLUSTER_DATABASE"]], check=True, capture_output=True)
        acks, sent = run_quiet(pids) if mode == "quiet" else run_load(pids)
        check_settled(acks, sent, log_file)
        print("cluster_failover %s: %s" % (mode, "PASS" if not failures else "%d check(s) FAILED" % len(failures)),
              flush=True)
        return 0 if not failures else 1
    finally:
        receiver.terminate()
        receiver.wait()


def run_load(pids):
    """The load with two kills, and its own checks; returns (acks, sent) as in Load."""
    load = Load()
    acks, sent = load.acks, load.sent
    threads = [threading.Thread(target=load.worker, args=(i,)) for i in range(WORKERS)]
    for t in threads:
        t.start()
    kills = []
    for at, pid in ((KILL1_S, pids[0]), (KILL2_S, pids[1])):
        time.sleep(max(0.0, at - load.now()))
        os.kill(int(pid), signal.SIGKILL)
        kills.append(load.now())
        print("kill -9 of server pid %s at %.1f s (%d sales answered so far)" % (pid, kills[-1], len(acks)),
              flush=True)
    for t in threads:
        t.join()
    duration = load.now()

    # The load.
    by_kind = collections.Counter(a["kind"] for a in acks.values())
    print("load: %d sales answered in %.1f s (%.0f/s) by %d client threads; by outcome: %s"
          % (len(acks), duration, len(acks) / duration, WORKERS,
             ", ".join("%s %d" % (k, by_kind[k]) for k, *_ in OUTCOMES)), flush=True)
    print("load: %d failed requests (each sent again with its reference_id): %s"
          % (len(load.errors), dict(collections.Counter(kind for _, kind in load.errors))), flush=True)
    check(not load.unexpected, "no answer but a sale or a failover error (got %s)" % load.unexpected[:5])
    check(not load.given_up, "every sale answered in the end (%d never were)" % len(load.given_up))
    check(all(by_kind[k] > 0 for k, *_ in OUTCOMES), "every sandbox outcome sold at least once")
    check(all(a["status"] == a["answered"] for a in acks.values()),
          "every sale answered with its sandbox status at once")
    stray = [(t, kind) for t, kind in load.errors if not any(k <= t <= k + KILL_WINDOW_S for k in kills)]
    check(not stray, "errors only within %.0f s of a kill (others: %s)" % (KILL_WINDOW_S, stray[:5]))
    check(len(load.errors) <= WORKERS * len(kills),
          "at most one error per client thread and kill (%d errors)" % len(load.errors))
    times = sorted(a["at"] for a in acks.values())
    gaps = [b - a for a, b in zip([0.0] + times, times + [duration])]
    print("load: longest time without an answer %.2f s" % max(gaps), flush=True)
    check(max(gaps) <= MAX_GAP_S, "the load kept answering (longest gap %.1f s)" % max(gaps))
    return acks, sent


def run_quiet(pids):
    """A quiet cluster: one sale of each PENDING outcome made on server 1 directly, server 1 killed with -9 at once
    (before any of them is due), and no traffic after: the others must find its settlements and webhooks by
    themselves. Returns (acks, sent) as in Load."""
    api = Api(os.environ["CLUSTER_SERVER_URLS"].split()[0])
    acks, sent = {}, {}
    for kind, path, make, answered, final in OUTCOMES:
        if answered != "PENDING":
            continue
        body = make()
        body["reference_id"] = reference_id = "cq-" + uuid.uuid4().hex[:20]
        sent[reference_id] = kind
        status, answer = api.call("POST", path, body)
        if check(status in (200, 201) and answer["data"]["transaction_status"] == "PENDING",
                 "%s answered PENDING by server 1 (got %s %s)" % (kind, status, answer)):
            acks[reference_id] = {"kind": kind, "answered": answered, "final": final,
                                  "transaction_id": answer["data"]["transaction_id"], "status": "PENDING", "at": 0.0}
    os.kill(int(pids[0]), signal.SIGKILL)
    print("quiet: %d PENDING sales made on server 1, then kill -9 of server pid %s; no traffic after"
          % (len(acks), pids[0]), flush=True)
    return acks, sent


def check_settled(acks, sent, log_file):
    """Waits until every sale answered PENDING (acks: reference_id -> {kind, answered, final, transaction_id})
    is settled and its webhook received, then checks the database and the receiver's log against acks and sent
    (every reference_id ever sent)."""
    pending = {a["transaction_id"]: a for a in acks.values() if a["answered"] == "PENDING"}
    ids = ",".join(str(i) for i in pending) or "0"

    def received():
        deliveries = []
        with open(log_file) as f:
            for line in f:
                deliveries.append(json.loads(line))
        return deliveries

    # Every PENDING sale settled and its webhook received (leases of dead servers may have to run out first).
    settled_in = wait_for("every PENDING sale settled", lambda: psql(
        "SELECT count(*) FROM transactions WHERE status = 'PENDING'")[0][0] == "0"
        and psql("SELECT count(*) FROM settlements")[0][0] == "0", SETTLE_BOUND_S)
    delivered_in = wait_for("a webhook received for every settled sale", lambda: len(
        {d.get("transaction_id") for d in received()} & set(pending)) == len(pending) and psql(
        "SELECT count(*) FROM webhook_events WHERE status <> 'delivered'")[0][0] == "0",
        SETTLE_BOUND_S if settled_in is not None else 5)  # unsettled sales have no webhook to wait for
    print("then: every PENDING sale settled after %s s, every webhook received after %s s more"
          % ("%.0f" % settled_in if settled_in is not None else "-",
             "%.0f" % delivered_in if delivered_in is not None else "-"), flush=True)

    # Every acknowledged sale exactly once, as answered; nothing nobody asked for.
    rows = psql("SELECT reference_id, count(*), min(id), min(status) FROM transactions GROUP BY reference_id")
    in_db = {r[0]: (int(r[1]), int(r[2]), r[3]) for r in rows}
    twice = [r for r, (n, _, _) in in_db.items() if n != 1]
    check(not twice, "every reference_id once in the database (more than once: %s)" % twice[:5])
    missing = [r for r in acks if r not in in_db]
    check(not missing, "every acknowledged sale in the database (%d missing: %s)" % (len(missing), missing[:5]))
    mismatched = [r for r, a in acks.items() if r in in_db and in_db[r][1] != a["transaction_id"]]
    check(not mismatched, "every acknowledged sale is the transaction_id it was answered with (%s)" % mismatched[:5])
    unknown = [r for r in in_db if r not in sent]
    check(not unknown, "no sale nobody asked for (%s)" % unknown[:5])
    wrong_final = [(r, a["kind"], in_db[r][2]) for r, a in acks.items()
                   if r in in_db and in_db[r][2] != a["final"]]
    check(not wrong_final, "every sale ended as the sandbox says (%s)" % wrong_final[:5])
    print("database: %d sales, %d acknowledged, %d sent" % (len(in_db), len(acks), len(sent)), flush=True)

    # Settled exactly once: one debit each, one refund for each FAILED, one webhook event for each PENDING one.
    ledger = psql("SELECT t.reference_id, t.status,"
                  " (SELECT count(*) FROM wallet_ledger l WHERE l.transaction_id = t.id AND l.kind = 'debit'),"
                  " (SELECT count(*) FROM wallet_ledger l WHERE l.transaction_id = t.id AND l.kind = 'refund'),"
                  " (SELECT count(*) FROM webhook_events e WHERE e.transaction_id = t.id),"
                  " (SELECT count(*) FROM webhook_events e WHERE e.transaction_id = t.id AND e.status = 'delivered')"
                  " FROM transactions t")
    bad_ledger, bad_events = [], []
    for reference_id, status, debits, refunds, events, delivered in ledger:
        if (debits, refunds) != ("1", "1" if status == "FAILED" else "0"):
            bad_ledger.append((reference_id, status, debits, refunds))
        was_pending = reference_id in acks and acks[reference_id]["answered"] == "PENDING"
        if (events, delivered) != (("1", "1") if was_pending else ("0", "0")):
            bad_events.append((reference_id, status, events, delivered))
    check(not bad_ledger, "one debit per sale and one refund per FAILED sale (%s)" % bad_ledger[:5])
    check(not bad_events, "one delivered webhook event per settled sale, none for the others (%s)" % bad_events[:5])

    # The receiver: one webhook-id per settled sale, with its final status; repeats allowed, losses not.
    deliveries = received()
    ids_by_transaction = collections.defaultdict(set)
    for d in deliveries:
        ids_by_transaction[d.get("transaction_id")].add(d.get("webhook_id"))
    lost = [t for t in pending if t not in ids_by_transaction]
    check(not lost, "a webhook for every settled sale (%d lost: %s)" % (len(lost), lost[:5]))
    several = [t for t, w in ids_by_transaction.items() if len(w) != 1]
    check(not several, "one webhook-id per settled sale (%s)" % several[:5])
    extra = [t for t in ids_by_transaction if t not in pending]
    check(not extra, "no webhook for a sale that never was PENDING (%s)" % extra[:5])
    finals = {int(r[0]): r[1] for r in psql("SELECT id, status FROM transactions WHERE id IN (%s)" % ids)}
    wrong = [d for d in deliveries if d.get("transaction_id") in finals
             and (d.get("status") != finals[d["transaction_id"]] or d.get("password") != WEBHOOK_PASSWORD)]
    check(not wrong, "every webhook says the final status, with the webhook_password (%s)" % wrong[:5])
    repeats = len(deliveries) - len({d.get("webhook_id") for d in deliveries})
    print("receiver: %d deliveries of %d webhook-ids for %d settled sales (%d repeats)"
          % (len(deliveries), len({d.get("webhook_id") for d in deliveries}), len(pending), repeats), flush=True)

    # Wallets equal ledgers.
    wallets = psql("SELECT w.account_id, w.mode, w.balance,"
                   " (SELECT coalesce(sum(l.amount), 0) FROM wallet_ledger l"
                   "  WHERE l.account_id = w.account_id AND l.mode = w.mode) FROM wallets w")
    unequal = [w for w in wallets if w[2] != w[3]]
    check(not unequal, "every wallet equals its ledger (account, mode, balance, ledger: %s)" % unequal)
    print("wallets: %s" % ", ".join("account %s %s %s paise = ledger %s" % tuple(w) for w in wallets), flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "receive":
        receive(sys.argv[2], sys.argv[3])
    else:
        sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "load"))
