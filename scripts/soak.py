#!/usr/bin/env python3
"""Soak test: 10,000 submissions through a daemon that is killed twice with
SIGKILL and whose disk fills up once. Not part of the default tests.

It builds the release binary, mounts a small tmpfs for the database (so the
disk can really fill up; this needs root), starts `nimjudge serve` on the
bundled problems and sends answer submissions from several threads. Each
submission carries its own Idempotency-Key and is retried with that key
until it is acknowledged (202, or 200 for a replay), exactly as a careful
client would. Meanwhile:

  - after 2,500 and after 5,500 acknowledgements the daemon is killed with
    SIGKILL and started again on the same database;
  - after 8,000 the disk is filled to the last byte for a few seconds, and
    then freed: health must say `failing` while it is full and `ok` after.

When every submission is acknowledged it waits for the queue to drain, then
reads the database (read-only) and prints:

  accepted     submissions acknowledged to the client
  judged       acknowledged submissions with a verdict
  lost         acknowledged but not in the database
  duplicated   idempotency keys stored more than once, or rows no key names
  stuck        acknowledged and still not judged at the end

Usage: sudo scripts/soak.py [--submissions N] [--clients C] [--workers W]
Exit status 0 when lost, duplicated and stuck are all 0.
"""

import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(REPO, "target", "release", "nimjudge")


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(base, method, path, token=None, body=None, headers=None, timeout=10):
    """(status, parsed JSON or text); status 0 when the server is unreachable."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    for key, value in (headers or {}).items():
        req.add_header(key, value)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            text = response.read().decode()
            return response.status, parse(text)
    except urllib.error.HTTPError as e:
        return e.code, parse(e.read().decode(errors="replace"))
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return 0, None


def parse(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


class Daemon:
    """`nimjudge serve` as a child process on a fixed port and database."""

    def __init__(self, env, workdir, logfile):
        self.env = env
        self.workdir = workdir
        self.logfile = logfile
        self.process = None

    def start(self):
        out = open(self.logfile, "ab")
        self.process = subprocess.Popen(
            [BIN, "serve"], cwd=self.workdir, env=self.env, stdout=out, stderr=out
        )

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def wait_healthy(base, deadline_s=60):
    end = time.time() + deadline_s
    while time.time() < end:
        status, body = request(base, "GET", "/api/health")
        if status == 200:
            return body
        time.sleep(0.1)
    raise SystemExit(f"the daemon did not become healthy within {deadline_s} s")


def fill_up(path):
    """Writes `path` until the filesystem has no byte left."""
    try:
        f = open(path, "wb", buffering=0)
    except OSError:
        return  # full already
    with f:
        chunk = b"\0" * 65536
        try:
            while True:
                f.write(chunk)
        except OSError:
            pass
        try:
            while True:
                f.write(b"\0")
        except OSError:
            pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--disk", default="256m", help="size of the database's tmpfs")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("soak.py mounts a tmpfs for the database: run it as root")

    log("building the release binary")
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=REPO, check=True)

    scratch = tempfile.mkdtemp(prefix="nimjudge-soak-")
    disk = os.path.join(scratch, "disk")
    os.mkdir(disk)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={args.disk}", "tmpfs", disk], check=True)
    try:
        return soak(args, scratch, disk)
    finally:
        subprocess.run(["umount", "-l", disk], check=False)


def soak(args, scratch, disk):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    database = os.path.join(disk, "soak.db")
    env = dict(os.environ)
    env.pop("RUST_LOG", None)
    env.update(
        {
            "NIMJUDGE_SERVER__BIND": f"127.0.0.1:{port}",
            "NIMJUDGE_DATABASE__URL": f"sqlite://{database}",
            "NIMJUDGE_CATALOG__PROBLEMS_DIR": os.path.join(REPO, "problems"),
            "NIMJUDGE_SANDBOX__WORK_DIR": os.path.join(scratch, "sandbox"),
            "NIMJUDGE_WORKER__COUNT": str(args.workers),
            "NIMJUDGE_WORKER__LEASE_SECONDS": "5",
            "NIMJUDGE_LIMITS__SUBMISSIONS_PER_MINUTE": "0",
            "NIMJUDGE_LIMITS__PENDING_SUBMISSIONS": "0",
            "NIMJUDGE_LIMITS__BYTES_PER_DAY": "0",
            "NIMJUDGE_LOG__FILTER": "warn",
        }
    )
    daemon = Daemon(env, scratch, os.path.join(scratch, "daemon.log"))
    daemon.start()
    wait_healthy(base)
    token = subprocess.run(
        [BIN, "token", "create", "--name", "soak", "--role", "contestant"],
        cwd=scratch, env=env, check=True, capture_output=True, text=True,
    ).stdout.split()[-1]
    status, testcases = request(base, "GET", "/api/problems/nim/testcases", token)
    if status != 200:
        raise SystemExit(f"cannot list nim's testcases: {status} {testcases}")
    names = [t["name"] for t in testcases["testcases"]]
    log(f"daemon up on port {port}; answering nim's {len(names)} public testcases")

    keys = [str(uuid.uuid4()) for _ in range(args.submissions)]
    acknowledged = {}  # key -> submission id
    lock = threading.Lock()
    next_index = [0]
    attempts = [0]
    refusals = {}  # status -> count

    def client():
        while True:
            with lock:
                if next_index[0] >= len(keys):
                    return
                key = keys[next_index[0]]
                next_index[0] += 1
            body = {"problem": "nim", "answers": {n: "First\n" for n in names}}
            while True:
                status, reply = request(
                    base, "POST", "/api/submissions", token, body, {"Idempotency-Key": key}
                )
                with lock:
                    attempts[0] += 1
                if status in (200, 202):
                    with lock:
                        acknowledged[key] = reply["id"]
                    break
                with lock:
                    refusals[status] = refusals.get(status, 0) + 1
                time.sleep(0.05)

    threads = [threading.Thread(target=client) for _ in range(args.clients)]
    started = time.time()
    for t in threads:
        t.start()

    def count():
        with lock:
            return len(acknowledged)

    def wait_for(n):
        while count() < min(n, args.submissions):
            time.sleep(0.01)

    episodes = []
    for at in (args.submissions // 4, args.submissions * 11 // 20):
        wait_for(at)
        daemon.kill()
        log(f"SIGKILL at {count()} acknowledged")
        episodes.append(f"kill -9 at {count()}")
        time.sleep(0.5)
        daemon.start()
        wait_healthy(base)
        log("restarted")

    wait_for(args.submissions * 4 // 5)
    ballast = os.path.join(disk, "ballast")
    sizes = {name: os.path.getsize(os.path.join(disk, name)) for name in os.listdir(disk)}
    log(f"database files before the disk fills: {sizes}")
    fill_up(ballast)
    log(f"disk full at {count()} acknowledged")
    time.sleep(1.0)
    seen_failing = None
    for _ in range(50):
        status, health = request(base, "GET", "/api/health")
        if status == 503:
            seen_failing = health
            break
        time.sleep(0.1)
    time.sleep(2.0)
    if os.path.exists(ballast):
        os.remove(ballast)
    status, health = request(base, "GET", "/api/health")
    log(f"disk freed; health {status} {health.get('status') if isinstance(health, dict) else health}")
    episodes.append(
        "disk full: health said "
        + (f"503 failing ({seen_failing.get('last_write_error')})" if seen_failing else "nothing (never 503)")
        + f", then {status} after freeing"
    )
    recovered = status == 200

    for t in threads:
        t.join()
    submit_seconds = time.time() - started
    log(f"all {count()} acknowledged in {submit_seconds:.1f} s ({attempts[0]} requests)")

    # Let the queue drain: leases of killed workers expire after 5 s.
    drain_deadline = time.time() + 120
    while time.time() < drain_deadline:
        status, health = request(base, "GET", "/api/health")
        if status == 200 and health["queued"] == 0 and health["running"] == 0:
            break
        time.sleep(0.5)
    daemon.stop()

    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    rows = dict(db.execute("select id, state from submission where user_name = 'soak'").fetchall())
    stored_keys = dict(
        db.execute("select key_value, submission_id from idempotency_key where user_name = 'soak'")
    )
    judgements = dict(
        db.execute(
            "select s.id, count(j.id) from submission s left join judgement j "
            "on j.submission_id = s.id where s.user_name = 'soak' group by s.id"
        ).fetchall()
    )
    db.close()

    ids = set(acknowledged.values())
    lost = [i for i in ids if i not in rows]
    judged = [i for i in ids if rows.get(i) == "done"]
    stuck = [i for i in ids if i in rows and rows[i] != "done"]
    # A duplicate is a stored submission beyond one per key: a row no key
    # names, a key naming another row than the one acknowledged, or one id
    # acknowledged for two keys.
    keyed = set(stored_keys.values())
    unkeyed = [i for i in rows if i not in keyed]
    remapped = [k for k, i in acknowledged.items() if stored_keys.get(k) != i]
    duplicated = len(unkeyed) + len(remapped) + (len(acknowledged) - len(ids))
    # Judged more than once in one round: every submission here is judged
    # once (no rejudges), so more than one judgement row is a double write.
    judged_twice = [i for i, n in judgements.items() if n > 1]

    print()
    print(f"submissions   {args.submissions} ({args.clients} clients, {args.workers} workers)")
    print(f"episodes      {'; '.join(episodes)}")
    print(f"requests      {attempts[0]} (refusals by status: {dict(sorted(refusals.items()))})")
    print(f"accepted      {len(acknowledged)}")
    print(f"judged        {len(judged)}")
    print(f"lost          {len(lost)}")
    print(f"duplicated    {duplicated}")
    print(f"stuck         {len(stuck)}")
    print(f"judged twice  {len(judged_twice)}")
    ok = not lost and not duplicated and not stuck and not judged_twice and seen_failing is not None and recovered
    print(f"result        {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
