"""Source 002's inserts with the source's own client, PyMongo (the source: "using MySQLdb and
PyMongo clients for Python", mpi4py processes and Python threads).

One process serves one study run: lib/studies/inserts/py-writers.js starts it, writes one JSON
request per line on stdin and reads one JSON reply per line on stdout. A request inserts the
documents [0, n) of the lab's seeded generator (fixtures/inserts-gen.js, ported below byte for
byte: the same documents the Node writers insert) into an emptied collection, split over W writers:
  mode "threads"    W Python threads sharing one MongoClient (the source's threads)
  mode "processes"  W Python processes, a MongoClient each (the source's mpi4py processes)
  w 1               today's acknowledged default: every insert's reply awaited, a failure raises
  w 0               the source's inferred writer (PyMongo < 2.4 Connection: unacknowledged,
                    nothing awaited); what reached the server is counted afterwards, the count's
                    wait inside the time as the Node w: 0 writer does (stored + rejected = written)
Every writer builds its documents and connects first; all start together at a barrier, and the
time (time.perf_counter) runs from the barrier to the last writer's end (plus, at w 0, until the
count reaches n or settles), so the process start-up, the documents' generation, the connections
and the pipe between the two processes are never in a variant's time.
Standard library and pymongo only.
"""

import multiprocessing
import os
import sys
import threading
import time

import pymongo
from pymongo.write_concern import WriteConcern

# the request loop shared with the mapreduce study's client (lib/infra/py_json_loop.py)
sys.dont_write_bytecode = True  # no __pycache__ in the lab's own folders (a checkout stays clean)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "infra"))
from py_json_loop import serve  # noqa: E402

M32 = 0xFFFFFFFF
ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789"
POOL_CHARS = 262144
PAYLOAD_OVERHEAD = 31
SETTLE_S = 2.0  # as insert-workers.js SETTLE_MS: a count unchanged this long has settled


def imul(a, b):
    return (a * b) & M32


def rng(seed):
    """mulberry32, as fixtures/gen.js LabGen.rng: 32-bit integer steps, one division."""
    state = [seed & M32]

    def nxt():
        state[0] = (state[0] + 0x6D2B79F5) & M32
        t = state[0]
        t = imul(t ^ (t >> 15), t | 1)
        t = (t ^ ((t + imul(t ^ (t >> 7), t | 61)) & M32)) & M32
        return ((t ^ (t >> 14)) & M32) / 4294967296.0

    return nxt


_pools = {}


def pool(seed):
    if seed not in _pools:
        nxt = rng(seed)
        _pools[seed] = "".join(ALPHA[int(nxt() * 36)] for _ in range(POOL_CHARS))
    return _pools[seed]


def filler(seed, i, length):
    p = pool(seed)
    off = int(rng((seed * 1000003 + i) % 4294967296)() * (POOL_CHARS - length + 1))
    return p[off : off + length]


def payload_doc(seed, i, size):
    return {"_id": i, "k": i, "pad": filler(seed, i, max(0, size - PAYLOAD_OVERHEAD))}


def docs_of(job, w, W):
    """Writer w's share of [0, n), as insert-workers.js prepare(): ceil(n / W) each, in order."""
    n = job["n"]
    per = -(-n // W)
    lo = w * per
    hi = min(n, lo + per)
    return [payload_doc(job["seed"], i, job["size"]) for i in range(lo, hi)]


def collection(client, job):
    return client[job["db"]].get_collection(job["coll"], write_concern=WriteConcern(w=job["w"]))


def insert_all(coll, docs, batch):
    """One writer's inserts; returns the operations sent. At w 1 a failure raises (an insert
    refused is a failed variant, never a silently short count)."""
    ops = 0
    if batch == 1:
        for d in docs:
            coll.insert_one(d)
            ops += 1
    else:
        for i in range(0, len(docs), batch):
            coll.insert_many(docs[i : i + batch], ordered=True)
            ops += 1
    return ops


def new_client(uri, pool_size):
    c = pymongo.MongoClient(uri, maxPoolSize=pool_size, serverSelectionTimeoutMS=10000)
    c.admin.command("ping")  # connected before the barrier
    return c


def run_threads(client, job):
    W = job["W"]
    coll = collection(client, job)
    shares = [docs_of(job, w, W) for w in range(W)]
    gate = threading.Barrier(W + 1)
    ops = [0] * W
    errors = []

    def writer(w):
        gate.wait()
        try:
            ops[w] = insert_all(coll, shares[w], job["batch"])
        except Exception as e:  # reported after the join: the variant fails with it
            errors.append("%s: %s" % (type(e).__name__, e))

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(W)]
    for t in threads:
        t.start()
    gate.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    t1 = time.perf_counter()
    if errors:
        raise RuntimeError(errors[0])
    return t0, t1, sum(ops)


def process_writer(uri, job, w, W, go, out):
    try:
        client = new_client(uri, 1)
        coll = collection(client, job)
        docs = docs_of(job, w, W)
        out.put(("ready", w, None, None))
        go.wait()
        ops = insert_all(coll, docs, job["batch"])
        out.put(("done", w, ops, time.perf_counter()))
        client.close()
    except Exception as e:
        out.put(("error", w, "%s: %s" % (type(e).__name__, e), None))


_ctx = None


def run_processes(uri, job):
    global _ctx
    if _ctx is None:
        # spawn: no MongoClient of this process is carried into a child (PyMongo warns against fork)
        _ctx = multiprocessing.get_context("spawn")
    W = job["W"]
    out = _ctx.Queue()
    go = _ctx.Event()
    kids = [_ctx.Process(target=process_writer, args=(uri, job, w, W, go, out)) for w in range(W)]
    for k in kids:
        k.start()

    def take(what):
        m = out.get(timeout=600)
        if m[0] == "error":
            raise RuntimeError("writer process %d: %s" % (m[1], m[2]))
        if m[0] != what:
            raise RuntimeError("writer process %d said %s before every writer was %s" % (m[1], m[0], what))
        return m

    try:
        for _ in range(W):
            take("ready")
        t0 = time.perf_counter()
        go.set()
        ops = 0
        t1 = t0
        for _ in range(W):
            m = take("done")
            ops += m[2]
            t1 = max(t1, m[3])  # perf_counter is system-wide on Linux (CLOCK_MONOTONIC)
        return t0, t1, ops
    finally:
        go.set()
        for k in kids:
            k.join(timeout=10)
            if k.is_alive():
                k.kill()


def wait_for_count(coll, expected):
    """At w 0: until the server holds every document, or its count stops moving for SETTLE_S.
    Returns (stored, the time the last document arrived)."""
    last = -1
    since = time.perf_counter()
    while True:
        n = coll.estimated_document_count()
        now = time.perf_counter()
        if n >= expected:
            return n, now
        if n != last:
            last = n
            since = now
        elif now - since > SETTLE_S:
            return n, since
        time.sleep(0.002)


def insert(client, uri, job):
    if job["mode"] == "threads":
        t0, t1, ops = run_threads(client, job)
    elif job["mode"] == "processes":
        t0, t1, ops = run_processes(uri, job)
    else:
        raise ValueError("mode: expected threads or processes, got %r" % (job["mode"],))
    out = {"ops": ops, "written": job["n"]}
    if job["w"] == 0:
        stored, t1 = wait_for_count(client[job["db"]][job["coll"]], job["n"])
        out["stored"] = stored
    out["ms"] = (t1 - t0) * 1000.0
    return out


def main():
    state = {"client": None, "uri": None}

    def connect(req):
        state["uri"] = req["uri"]
        state["client"] = new_client(req["uri"], 100)
        return {"pymongo": pymongo.version, "hasC": pymongo.has_c()}

    serve(
        {
            "connect": connect,
            "insert": lambda req: insert(state["client"], state["uri"], req),
            # the generator, for the test that it matches the Node one
            "docs": lambda req: {"docs": [payload_doc(req["seed"], i, req["size"]) for i in req["ids"]]},
        }
    )
    if state["client"] is not None:
        state["client"].close()


if __name__ == "__main__":
    main()
