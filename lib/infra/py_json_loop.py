"""The request loop the lab's Python helpers share (the inserts study's py_writer.py, the mapreduce
study's py_client.py): one JSON request per line on stdin, one JSON reply per line on stdout.

A script imports it after putting this folder on sys.path (the scripts run as files, not as a
package), and names a handler for each op; a handler answers a dict, sent with ok=True.
Standard library only.
"""

import json
import sys


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def serve(handlers):
    """Answer each request on stdin with its op's handler until stdin closes."""
    for line in sys.stdin:
        try:
            req = json.loads(line)
            handler = handlers.get(req["op"])
            if handler is None:
                reply({"ok": False, "error": "unknown op " + str(req.get("op"))})
            else:
                reply(dict(handler(req), ok=True))
        except Exception as e:  # one failed request is reported; the process serves the next
            reply({"ok": False, "error": "%s: %s" % (type(e).__name__, e)})
