#!/usr/bin/env python3
"""Multi-host test: nimjudge on PostgreSQL with one API host and three worker
hosts, each in its own network namespace, while worker hosts die and lose
their network.

Hosts are network namespaces on this machine, joined by a bridge (10.77.0.0/24),
each with its own host name (a UTS namespace), so the workers' names say which
host judged what:

  db    10.77.0.1   PostgreSQL (scripts/postgres-cluster.sh, listening on TCP)
  api   10.77.0.2   nimjudge serve --workers 0   (HTTP on port 8080)
  w1-3  10.77.0.11- nimjudge worker --workers W

The client (this script) runs outside them and reaches the API over the bridge.

Phase 1, faults: C clients send N answer submissions (each with its own
Idempotency-Key, retried until acknowledged). Meanwhile:

  - once w1 holds a running job, w1 is killed with SIGKILL (and stays dead);
  - once w2 holds a running job, w2's link is cut (its end of the veth goes
    down) for longer than a lease plus PostgreSQL's idle-in-transaction
    timeout, then restored. Whatever w2 was judging has by then been claimed
    again by w3; its late write must be fenced (a `dropped` event) and change
    nothing. The cut is repeated, up to --cuts times, until one late write of
    w2 has been seen dropped.

When the queue has drained, the database is read and the script checks that
every acknowledged submission is stored once, judged once (one judgement row,
state done, the same verdict as every other identical submission), and that
nothing is stuck; it prints the reclaimed leases and the dropped late writes.

Phase 2, throughput (skipped with --backlog 0): with no worker running, the
API host takes a backlog of B submissions; then 1, 2 and 3 worker hosts start
at once and the time until the backlog is judged gives submissions/s.

Run as root (namespaces, veth). Needs Debian's postgresql and iproute2.
Exit status 0 when every check passes.

Usage: sudo scripts/multihost.py [--binary target/release/nimjudge]
         [--submissions 5000] [--clients 8] [--workers 2] [--lease 3]
         [--backlog 2000] [--cuts 5]
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BRIDGE = "njbr0"
SUBNET = "10.77.0"
HOSTS = {"db": 1, "api": 2, "w1": 11, "w2": 12, "w3": 13}
API = f"http://{SUBNET}.2:8080"
# PostgreSQL ends a session idle in a transaction after this long (the
# product's default is 10 s; shorter here so a cut need not last long).
IDLE_TIMEOUT_MS = 2000


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def run(*command, check=True, **kwargs):
    return subprocess.run(command, check=check, **kwargs)


def request(method, path, token=None, body=None, headers=None, timeout=10):
    """(status, parsed JSON or text); status 0 when the API is unreachable."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(API + path, data=data, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    for key, value in (headers or {}).items():
        req.add_header(key, value)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, json.loads(response.read().decode() or "null")
    except urllib.error.HTTPError as e:
        text = e.read().decode(errors="replace")
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, text
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return 0, None


class Network:
    """The bridge and one namespace per host, removed by `remove`."""

    def create(self):
        self.remove()
        run("ip", "link", "add", BRIDGE, "type", "bridge")
        run("ip", "addr", "add", f"{SUBNET}.254/24", "dev", BRIDGE)
        run("ip", "link", "set", BRIDGE, "up")
        for host, last in HOSTS.items():
            ns = f"nj-{host}"
            run("ip", "netns", "add", ns)
            run("ip", "link", "add", f"njv-{host}", "type", "veth", "peer", "name", "eth0", "netns", ns)
            run("ip", "link", "set", f"njv-{host}", "master", BRIDGE, "up")
            run("ip", "-n", ns, "addr", "add", f"{SUBNET}.{last}/24", "dev", "eth0")
            run("ip", "-n", ns, "link", "set", "eth0", "up")
            run("ip", "-n", ns, "link", "set", "lo", "up")

    def cut(self, host):
        run("ip", "link", "set", f"njv-{host}", "down")

    def restore(self, host):
        run("ip", "link", "set", f"njv-{host}", "up")

    def remove(self):
        for host in HOSTS:
            run("ip", "netns", "del", f"nj-{host}", check=False, stderr=subprocess.DEVNULL)
        run("ip", "link", "del", BRIDGE, check=False, stderr=subprocess.DEVNULL)


class Database:
    """The PostgreSQL host, and queries on it through psql."""

    def __init__(self, scratch):
        self.dir = os.path.join(scratch, "db")
        self.url = None

    def start(self):
        script = os.path.join(REPO, "scripts", "postgres-cluster.sh")
        out = run("ip", "netns", "exec", "nj-db", script, "start", self.dir, f"{SUBNET}.1",
                  capture_output=True, text=True)
        self.url = out.stdout.strip()

    def stop(self):
        script = os.path.join(REPO, "scripts", "postgres-cluster.sh")
        run("ip", "netns", "exec", "nj-db", script, "stop", self.dir, check=False,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def rows(self, sql):
        out = run("psql", "-X", "-q", "-At", "-F", "\t", "-h", f"{SUBNET}.1", "-U", "postgres",
                  "-d", "postgres", "-c", sql, capture_output=True, text=True)
        return [line.split("\t") for line in out.stdout.splitlines() if line]

    def value(self, sql):
        return self.rows(sql)[0][0]


class Host:
    """One nimjudge process in its host's namespace, named after the host."""

    def __init__(self, name, args, env, scratch, command):
        self.name = name
        self.args = args
        self.env = env
        self.dir = os.path.join(scratch, name)
        os.makedirs(self.dir, exist_ok=True)
        self.command = command
        self.process = None

    def start(self):
        out = open(os.path.join(self.dir, "log"), "ab")
        # Each host's sandbox gets uids of its own, as on separate machines.
        env = dict(self.env, NIMJUDGE_SANDBOX__WORK_DIR=os.path.join(self.dir, "sandbox"),
                   NIMJUDGE_SANDBOX__FIRST_UID=str(60000 + 100 * list(HOSTS).index(self.name)))
        self.process = subprocess.Popen(
            ["ip", "netns", "exec", f"nj-{self.name}", "unshare", "--uts", "--", "sh", "-c",
             'hostname "$0" && exec "$@"', self.name, self.args.binary, *self.command],
            cwd=self.dir, env=env, stdout=out, stderr=out,
        )

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def alive(self):
        return self.process is not None and self.process.poll() is None


def wait_until(what, condition, timeout_s=120, every_s=0.05):
    end = time.time() + timeout_s
    while time.time() < end:
        if condition():
            return
        time.sleep(every_s)
    raise SystemExit(f"timed out after {timeout_s} s waiting for {what}")


class Clients:
    """Threads sending identical answer submissions, each under its own
    Idempotency-Key and retried until acknowledged."""

    def __init__(self, token, body, count, clients):
        self.token, self.body = token, body
        self.keys = [str(uuid.uuid4()) for _ in range(count)]
        self.acknowledged = {}
        self.lock = threading.Lock()
        self.next = 0
        self.requests = 0
        self.refusals = {}
        self.threads = [threading.Thread(target=self.client, daemon=True) for _ in range(clients)]

    def start(self):
        for t in self.threads:
            t.start()

    def join(self):
        for t in self.threads:
            t.join()

    def count(self):
        with self.lock:
            return len(self.acknowledged)

    def client(self):
        while True:
            with self.lock:
                if self.next >= len(self.keys):
                    return
                key = self.keys[self.next]
                self.next += 1
            while True:
                status, reply = request("POST", "/api/submissions", self.token, self.body,
                                        {"Idempotency-Key": key})
                with self.lock:
                    self.requests += 1
                    if status in (200, 202):
                        self.acknowledged[key] = reply["id"]
                        break
                    self.refusals[status] = self.refusals.get(status, 0) + 1
                time.sleep(0.05)


def running_on(db, host, kind=None):
    """Ids and attempts of jobs (of `kind`, if given) the database says
    `host` holds."""
    of_kind = f" and kind = '{kind}'" if kind else ""
    return db.rows(f"select id, attempt from submission where state = 'running' "
                   f"and worker like '{host}-%'{of_kind}")


def dropped_by(db, host):
    return int(db.value(f"select count(*) from event where kind = 'dropped' "
                        f"and actor like '{host}-%'"))


def poll(condition, timeout_s, every_s=0.2):
    """Whether `condition` became true within `timeout_s`."""
    end = time.time() + timeout_s
    while time.time() < end:
        if condition():
            return True
        time.sleep(every_s)
    return condition()


def faults(args, net, db, hosts, token, body, program):
    """Phase 1. Returns (ok, lines to print)."""
    clients = Clients(token, body, args.submissions, args.clients)
    extra = []  # more load, when the cuts outlast the first batch
    started = time.time()
    clients.start()
    lines = []

    # kill -9 w1 while it holds a job.
    wait_until("w1 to hold a job", lambda: running_on(db, "w1"), timeout_s=300, every_s=0.01)
    hosts["w1"].kill()
    held = running_on(db, "w1")
    log(f"w1 killed (SIGKILL) at {clients.count()} acknowledged, holding {len(held)} job(s)")
    lines.append(f"kill -9 w1 at {clients.count()} acknowledged, holding {len(held)} running job(s)")

    # Cut w2 while it holds a job, until one of its late writes is dropped.
    cut_s = args.lease + IDLE_TIMEOUT_MS / 1000 + 3
    cuts = 0
    held_at_cuts = 0
    reclaimed_at_cuts = 0
    while cuts < args.cuts and dropped_by(db, "w2") == 0:
        if clients.count() >= args.submissions * 9 // 10:
            more = Clients(token, body, 300, 2)
            more.start()
            extra.append(more)
        # An answer job spends most of its time in the database, so a cut
        # mostly lands inside a transaction (which the server then ends);
        # a program job spends seconds in the sandbox between its claim and
        # its verdict, where a cut leaves a late write behind.
        programs = Clients(token, program, 3, 3)
        programs.start()
        extra.append(programs)
        wait_until("w2 to judge a program", lambda: running_on(db, "w2", "program"),
                   timeout_s=180, every_s=0.01)
        net.cut("w2")
        cuts += 1
        held = running_on(db, "w2")
        held_at_cuts += len(held)
        log(f"w2's link cut ({cuts}) at {clients.count()} acknowledged; the database says it "
            f"holds {len(held)} job(s); restoring in {cut_s:.0f} s")
        time.sleep(cut_s)
        reclaimed = [i for i, attempt in held
                     if db.value(f"select attempt from submission where id = '{i}'") != attempt]
        reclaimed_at_cuts += len(reclaimed)
        net.restore("w2")
        log(f"w2's link restored; {len(reclaimed)} of its {len(held)} job(s) were claimed again meanwhile")
        # Its late writes arrive when TCP's next retransmission goes through.
        poll(lambda: dropped_by(db, "w2") > 0, timeout_s=20)
    lines.append(f"w2's link cut {cuts} time(s) for {cut_s:.0f} s each (lease {args.lease} s, "
                 f"idle-in-transaction timeout {IDLE_TIMEOUT_MS} ms); the database said w2 held "
                 f"{held_at_cuts} job(s) at the cuts, {reclaimed_at_cuts} claimed again meanwhile")

    clients.join()
    for more in extra:
        more.join()
    sent = args.submissions + sum(len(more.keys) for more in extra)
    acknowledged = dict(clients.acknowledged)
    requests, refusals = clients.requests, dict(clients.refusals)
    for more in extra:
        acknowledged.update(more.acknowledged)
        requests += more.requests
        for status, n in more.refusals.items():
            refusals[status] = refusals.get(status, 0) + n
    submit_s = time.time() - started
    log(f"all {len(acknowledged)} acknowledged in {submit_s:.1f} s ({requests} requests)")
    wait_until("the queue to drain",
               lambda: db.value("select count(*) from submission where state <> 'done'") == "0",
               timeout_s=300, every_s=0.5)
    drained_s = time.time() - started

    stored = dict(db.rows("select key_value, submission_id from idempotency_key "
                          "where user_name = 'multihost'"))
    states = dict(db.rows("select id, state from submission where user_name = 'multihost'"))
    judgements = dict(db.rows(
        "select s.id, count(j.id) from submission s left join judgement j on j.submission_id = s.id "
        "where s.user_name = 'multihost' group by s.id"))
    verdicts = db.rows("select kind, verdict, count(*) from submission "
                       "where user_name = 'multihost' group by kind, verdict order by 1, 3 desc")
    judged_by = db.rows(
        "select split_part(j.worker, '-', 1), count(*) from judgement j join submission s "
        "on s.id = j.submission_id where s.user_name = 'multihost' group by 1 order by 1")
    lease_lost = int(db.value("select count(*) from event where kind = 'lease_lost'"))
    dropped = db.rows("select split_part(actor, '-', 1), count(*) from event "
                      "where kind = 'dropped' group by 1 order by 1")
    ids = set(acknowledged.values())
    lost = [i for i in ids if i not in states]
    stuck = [i for i, s in states.items() if s != "done"]
    keyed = set(stored.values())
    duplicated = (len([i for i in states if i not in keyed])
                  + len([k for k, i in acknowledged.items() if stored.get(k) != i])
                  + (len(acknowledged) - len(ids)))
    judged_twice = [i for i, n in judgements.items() if int(n) != 1]
    w2_dropped = dropped_by(db, "w2")

    lines += [
        f"accepted        {len(acknowledged)} of {sent} sent ({requests} requests; "
        f"refusals by status {dict(sorted(refusals.items()))})",
        f"stored          {len(states)}",
        f"judged          {sum(1 for s in states.values() if s == 'done')} in {drained_s:.1f} s",
        f"verdicts        {', '.join(f'{k} {v}: {n}' for k, v, n in verdicts)}",
        f"judged by       {', '.join(f'{h}: {n}' for h, n in judged_by)}",
        f"lost            {len(lost)}",
        f"duplicated      {duplicated}",
        f"stuck           {len(stuck)}",
        f"judged != once  {len(judged_twice)}",
        f"leases reclaimed {lease_lost}",
        f"late writes dropped (fenced) {', '.join(f'{h}: {n}' for h, n in dropped) or 'none'}",
    ]
    ok = (len(acknowledged) == sent and not lost and not duplicated and not stuck
          and not judged_twice and len(verdicts) == len({k for k, _, _ in verdicts}) and w2_dropped > 0 and lease_lost > 0)
    if w2_dropped == 0:
        lines.append(f"FAIL: none of {cuts} cuts caught a late write of w2")
    return ok, lines


def throughput(args, db, hosts, token, body):
    """Phase 2: a backlog judged by 1, 2 and 3 worker hosts."""
    lines = []
    for host in ("w1", "w2", "w3"):
        hosts[host].stop()
    for k in (1, 2, 3):
        first = int(db.value("select coalesce(max(seq), 0) from submission"))
        clients = Clients(token, body, args.backlog, args.clients)
        clients.start()
        clients.join()
        wait_until("the backlog to be stored",
                   lambda: int(db.value("select count(*) from submission where state = 'queued'"))
                   >= args.backlog)
        started = time.time()
        for host in ("w1", "w2", "w3")[:k]:
            hosts[host].start()
        wait_until(f"{k} worker host(s) to judge the backlog",
                   lambda: db.value("select count(*) from submission where state <> 'done'") == "0",
                   timeout_s=600, every_s=0.05)
        seconds = time.time() - started
        for host in ("w1", "w2", "w3")[:k]:
            hosts[host].stop()
        # From the first verdict to the last, as the database recorded them
        # (the hosts' own start, a sandbox self-test and a catalog check, is
        # left out).
        span_ms = int(db.value(f"select max(judged_at) - min(judged_at) from submission "
                               f"where seq > {first}"))
        rate = (args.backlog - 1) * 1000 / max(span_ms, 1)
        log(f"{k} worker host(s): {args.backlog} judged, {span_ms} ms from the first verdict "
            f"to the last = {rate:.0f}/s ({seconds:.2f} s from the hosts' start)")
        lines.append(f"{k} worker host(s) x {args.workers} workers: {rate:.0f} submissions/s "
                     f"({args.backlog} in {span_ms} ms, first verdict to last; {seconds:.2f} s "
                     f"from the hosts' start)")
    return lines



def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(REPO, "target", "release", "nimjudge"))
    parser.add_argument("--submissions", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="workers per worker host")
    parser.add_argument("--lease", type=int, default=3, help="lease in seconds")
    parser.add_argument("--backlog", type=int, default=2000, help="0 skips the throughput phase")
    parser.add_argument("--cuts", type=int, default=5, help="most cuts of w2's link")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("multihost.py makes network namespaces: run it as root")
    for tool in ("ip", "unshare", "psql"):
        if shutil.which(tool) is None:
            raise SystemExit(f"`{tool}` is missing: install iproute2, util-linux and postgresql")
    if not os.access(args.binary, os.X_OK):
        raise SystemExit(f"no nimjudge binary at {args.binary}: build it first (cargo build)")
    args.binary = os.path.abspath(args.binary)

    scratch = tempfile.mkdtemp(prefix="nimjudge-multihost-")
    os.chmod(scratch, 0o755)  # the database host runs as the postgres user
    db = Database(scratch)
    net = Network()
    hosts = {}
    ok = False
    try:
        net.create()
        db.start()
        log(f"database host up: {db.url}")
        url = f"{db.url}?options=-c%20idle_in_transaction_session_timeout%3D{IDLE_TIMEOUT_MS}ms"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NIMJUDGE_", "RUST_LOG"))}
        env.update({
            "NIMJUDGE_DATABASE__URL": url,
            "NIMJUDGE_SERVER__BIND": f"{SUBNET}.2:8080",
            "NIMJUDGE_CATALOG__PROBLEMS_DIR": os.path.join(REPO, "problems"),
            "NIMJUDGE_WORKER__LEASE_SECONDS": str(args.lease),
            "NIMJUDGE_LIMITS__SUBMISSIONS_PER_MINUTE": "0",
            "NIMJUDGE_LIMITS__PENDING_SUBMISSIONS": "0",
            "NIMJUDGE_LIMITS__BYTES_PER_DAY": "0",
            "NIMJUDGE_LOG__FILTER": "warn",
        })
        hosts["api"] = Host("api", args, env, scratch, ["serve", "--workers", "0"])
        hosts["api"].start()
        wait_until("the API host", lambda: request("GET", "/api/health")[0] == 200, timeout_s=120,
                   every_s=0.2)
        token = run(args.binary, "token", "create", "--name", "multihost", "--role", "contestant",
                    env=env, cwd=scratch, capture_output=True, text=True).stdout.split()[-1]
        status, listing = request("GET", "/api/problems/nim/testcases", token)
        if status != 200:
            raise SystemExit(f"cannot list nim's testcases: {status} {listing}")
        body = {"problem": "nim", "answers": {t["name"]: "First\n" for t in listing["testcases"]}}
        # A right answer, slowly: 0.3 s per testcase.
        program = {"problem": "nim", "language": "python", "source": (
            "import sys, time\ntime.sleep(0.3)\nd = sys.stdin.read().split()\nx = 0\n"
            "for a in d[1:]: x ^= int(a)\nprint('Alice' if x else 'Bob')\n")}
        for name in ("w1", "w2", "w3"):
            hosts[name] = Host(name, args, env, scratch, ["worker", "--workers", str(args.workers)])
            hosts[name].start()
        log(f"API host and 3 worker hosts ({args.workers} workers each) up; "
            f"{args.submissions} submissions from {args.clients} clients")

        ok, lines = faults(args, net, db, hosts, token, body, program)
        if args.backlog:
            lines += throughput(args, db, hosts, token, body)
        print()
        for line in lines:
            print(line)
        print(f"result          {'PASS' if ok else 'FAIL'}")
        if not ok:
            print(f"host logs kept in {scratch}")
        return 0 if ok else 1
    finally:
        for host in hosts.values():
            host.stop()
        db.stop()
        net.remove()
        if ok:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
