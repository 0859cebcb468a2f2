"""Source 000's client variants with its own client, PyMongo (the source ran Python 3.4).

One process serves one study run: lib/studies/mapreduce/pymongo.js starts it, writes one JSON
request per line on stdin and reads one JSON reply per line on stdout. The process connects once
(the connection is made and checked before any timing); each request then times its own work with
time.perf_counter, from the first query to the finished statistics, so the process start-up, the
import of pymongo and the pipe between the two processes are never in a variant's time.

The variants do what the Node driver's do (lib/studies/mapreduce/client.js), over the same
documents: the first n in natural order, which for data the lab imported is also _id order.
  py-client-list        whole documents into a list, then statistics over the field's values
  py-client-field-list  the same list code, the server projecting the one field
  py-client-acc         one projected field into accumulators as the cursor streams
  py-client-chunked     10 sequential queries of n/10 by _id, each after the last _id before
  py-client-parallel    4 threads, each a cursor over its own _id range (the source's
                        "multithreaded python tests"); the range boundaries found first, timed too
Each answers {sum, min, max, count, mean}; a missing or non-numeric reading is skipped.
Standard library and pymongo only.
"""

import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pymongo

# the request loop shared with the inserts study's writer (lib/infra/py_json_loop.py)
sys.dont_write_bytecode = True  # no __pycache__ in the lab's own folders (a checkout stays clean)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "infra"))
from py_json_loop import serve  # noqa: E402

CHUNKS = 10
THREADS = 4


def empty():
    return {"sum": 0.0, "min": None, "max": None, "count": 0}


def add(s, v):
    # bool is an int in Python; a reading is a number that is not a bool and not NaN
    if isinstance(v, bool) or not isinstance(v, (int, float)) or (isinstance(v, float) and math.isnan(v)):
        return
    s["sum"] += v
    if s["min"] is None or v < s["min"]:
        s["min"] = v
    if s["max"] is None or v > s["max"]:
        s["max"] = v
    s["count"] += 1


def merge(a, b):
    def pick(f, x, y):
        return y if x is None else x if y is None else f(x, y)

    return {
        "sum": a["sum"] + b["sum"],
        "min": pick(min, a["min"], b["min"]),
        "max": pick(max, a["max"], b["max"]),
        "count": a["count"] + b["count"],
    }


def finish(s):
    return dict(s, mean=(s["sum"] / s["count"]) if s["count"] else None)


def list_stats(cursor, field):
    # the same list code as the Node client's listStats: documents into a list as the cursor
    # streams, the field's values into a second list, then the statistics over that list
    docs = []
    for d in cursor:
        docs.append(d)
    values = [d[field] for d in docs if field in d]
    s = empty()
    for v in values:
        add(s, v)
    return finish(s)


def client_list(coll, n, field):
    return list_stats(coll.find({}).limit(n), field)


def client_field_list(coll, n, field):
    return list_stats(coll.find({}, {"_id": 0, field: 1}).limit(n), field)


def client_acc(coll, n, field):
    s = empty()
    for d in coll.find({}, {"_id": 0, field: 1}).limit(n):
        add(s, d.get(field))
    return finish(s)


def client_chunked(coll, n, field):
    k = max(1, min(CHUNKS, n))
    total = empty()
    last = None
    for c in range(k):
        size = (n * (c + 1)) // k - (n * c) // k
        flt = {} if last is None else {"_id": {"$gt": last}}
        s = empty()
        got = 0
        for d in coll.find(flt, {"_id": 1, field: 1}).sort("_id", 1).limit(size):
            add(s, d.get(field))
            last = d["_id"]
            got += 1
        total = merge(total, s)
        if got < size:
            break  # the collection ended
    return finish(total)


def id_at(coll, position):
    r = list(coll.find({}, {"_id": 1}).sort("_id", 1).skip(position).limit(1))
    return r[0]["_id"] if r else None


def client_parallel(coll, n, field):
    k = max(1, min(THREADS, n))
    cuts = [(n * j) // k for j in range(1, k + 1)]
    with ThreadPoolExecutor(max_workers=k) as pool:
        # bounds[j]: the first _id of range j+1; the last one the first _id after the batch
        bounds = list(pool.map(lambda p: id_at(coll, p), cuts))

        def part(j):
            lo = None if j == 0 else bounds[j - 1]
            hi = bounds[j]
            if j > 0 and lo is None:
                return empty()  # a batch larger than the collection
            rng = {}
            if lo is not None:
                rng["$gte"] = lo
            if hi is not None:
                rng["$lt"] = hi
            s = empty()
            for d in coll.find({"_id": rng} if rng else {}, {"_id": 0, field: 1}):
                add(s, d.get(field))
            return s

        parts = list(pool.map(part, range(k)))
    total = empty()
    for s in parts:
        total = merge(total, s)
    return finish(total)


VARIANTS = {
    "py-client-list": client_list,
    "py-client-field-list": client_field_list,
    "py-client-acc": client_acc,
    "py-client-chunked": client_chunked,
    "py-client-parallel": client_parallel,
}


def main():
    state = {"client": None, "coll": None}

    def connect(req):
        state["client"] = pymongo.MongoClient(req["uri"], serverSelectionTimeoutMS=10000)
        state["client"].admin.command("ping")  # the connection is made here, before any timing
        state["coll"] = state["client"][req["db"]][req["coll"]]
        return {"pymongo": pymongo.version, "hasC": pymongo.has_c()}

    def run(req):
        fn = VARIANTS[req["variant"]]
        t0 = time.perf_counter()
        answer = fn(state["coll"], int(req["n"]), req["field"])
        ms = (time.perf_counter() - t0) * 1000.0
        return {"ms": ms, "answer": answer}

    serve({"connect": connect, "run": run})
    if state["client"] is not None:
        state["client"].close()


if __name__ == "__main__":
    main()
