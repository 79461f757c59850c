#!/usr/bin/env python3
"""The retry rule of packaging/examples/haproxy.cfg, checked against haproxy itself (CTest haproxy_retries).

A POST that reached a server must never be sent again by haproxy to another one (the first may have made the sale);
a GET may be. Two stand-in servers behind haproxy with the example config: "dropper" takes every request but
/readyz and closes the connection without an answer (a server that dies mid-request), "answerer" answers 200. Then:
  - each of 12 POSTs reaches exactly one server; those the dropper took come back as haproxy's 502, in the API's JSON
    error envelope (reason server_no_answer), and are not re-sent to the answerer;
  - each of 12 GETs is answered 200, those the dropper took re-sent to the answerer.

    python3 tests/tools/haproxy_retries.py packaging/examples/haproxy.cfg

Exit 0 when both hold, 1 otherwise, 77 (skipped) when haproxy is not installed, unless RECHARGEDESK_REQUIRE_POSTGRES=1
or CI=true (the cluster tests' rule: then 1).
"""

import collections
import http.client
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

REQUESTS = 12


class StandIn(http.server.ThreadingHTTPServer):
    """A server on a free loopback port that counts the requests it gets by method (GET /readyz aside)."""

    def __init__(self, drops):
        self.drops = drops
        self.counts = collections.Counter()
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def address(self):
        return "127.0.0.1:%d" % self.server_address[1]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def handle_request(self):
        length = int(self.headers.get("Content-Length", "0"))
        if length:
            self.rfile.read(length)
        if self.path == "/readyz":
            self.answer(b'{"status":"ready"}')
            return
        with self.server.lock:
            self.server.counts[self.command] += 1
        if self.server.drops:
            # Closes without a byte of answer, a moment after the request (a server that died while working on it):
            # an "empty response" to haproxy.
            time.sleep(0.05)
            self.close_connection = True
            return
        self.answer(b'{"data":{}}')

    def answer(self, body):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = handle_request
    do_POST = handle_request

    def log_message(self, *args):
        pass


def runtime_api(sock_path, command):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock_path)
        s.sendall(command.encode() + b"\n")
        out = b""
        while chunk := s.recv(65536):
            out += chunk
    return out.decode()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(port, method):
    """(status, body) of one request on a connection of its own."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    body = b'{"phone_number":"9876543210","amount":"10","operator_code":"AT"}' if method == "POST" else None
    conn.request(method, "/api/v1/recharge/mobile/initiate-transaction" if method == "POST" else "/api/v1/wallet",
                 body=body, headers={"Content-Type": "application/json", "Connection": "close"})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data


def main(config):
    haproxy = os.environ.get("HAPROXY") or shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.access(haproxy, os.X_OK):
        required = os.environ.get("RECHARGEDESK_REQUIRE_POSTGRES") == "1" or os.environ.get("CI") == "true"
        print("%s: haproxy_retries: haproxy is not installed (bash packaging/install-deps.sh)"
              % ("FAIL" if required else "SKIP"), file=sys.stderr)
        return 1 if required else 77
    dropper, answerer = StandIn(drops=True), StandIn(drops=False)
    work = tempfile.mkdtemp(prefix="rechargedesk-haproxy-retries.")
    port = free_port()
    env = dict(os.environ, RECHARGEDESK_HAPROXY_BIND="127.0.0.1:%d" % port,
               RECHARGEDESK_HAPROXY_SOCKET=os.path.join(work, "haproxy.sock"),
               RECHARGEDESK_SERVER1=dropper.address(), RECHARGEDESK_SERVER2=answerer.address(),
               RECHARGEDESK_SERVER3="127.0.0.1:1")
    log = open(os.path.join(work, "haproxy.log"), "w")
    proxy = subprocess.Popen([haproxy, "-db", "-f", config], env=env, stdout=log, stderr=subprocess.STDOUT)
    failures = []
    try:
        sock_path = env["RECHARGEDESK_HAPROXY_SOCKET"]
        for _ in range(100):
            if os.path.exists(sock_path):
                break
            time.sleep(0.1)
        runtime_api(sock_path, "set server rechargedesk_servers/s3 state maint")
        for _ in range(100):
            stat = runtime_api(sock_path, "show stat").splitlines()
            up = [row for row in stat if row.startswith("rechargedesk_servers,s") and row.split(",")[17] == "UP"]
            if len(up) == 2:
                break
            time.sleep(0.1)
        else:
            failures.append("haproxy does not see both stand-in servers up")

        posts = [request(port, "POST") for _ in range(REQUESTS)]
        dropped_posts, answered_posts = dropper.counts["POST"], answerer.counts["POST"]
        print("POST: %d sent, the dropper took %d, the answerer %d; answers %s"
              % (REQUESTS, dropped_posts, answered_posts, dict(collections.Counter(s for s, _ in posts))))
        if dropped_posts + answered_posts != REQUESTS:
            failures.append("each POST reached exactly one server (%d + %d for %d sent): haproxy re-sent a POST"
                            % (dropped_posts, answered_posts, REQUESTS))
        if dropped_posts == 0:
            failures.append("the dropper took no POST, so nothing was tried (leastconn should alternate)")
        bad_502 = [data for status, data in posts if status == 502 and
                   json.loads(data).get("error", {}).get("reason") != "server_no_answer"]
        if sum(1 for s, _ in posts if s == 502) != dropped_posts or bad_502:
            failures.append("every POST the dropper took answered 502 server_no_answer in JSON (%s)" % posts)

        gets = [request(port, "GET") for _ in range(REQUESTS)]
        print("GET: %d sent, the dropper took %d, the answerer %d; answers %s"
              % (REQUESTS, dropper.counts["GET"], answerer.counts["GET"],
                 dict(collections.Counter(s for s, _ in gets))))
        if any(status != 200 for status, _ in gets):
            failures.append("every GET answered 200 (re-sent to the answerer after the dropper's empty answer)")
        if dropper.counts["GET"] == 0:
            failures.append("the dropper took no GET, so no re-send was tried")
    finally:
        proxy.terminate()
        proxy.wait()
        log.close()
        if failures:
            with open(os.path.join(work, "haproxy.log")) as f:
                sys.stderr.write(f.read()[-3000:])
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL: " + failure)
    print("haproxy_retries: %s" % ("PASS" if not failures else "FAILED"))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.join(os.path.dirname(__file__), "..", "..", "packaging", "examples", "haproxy.cfg")))
