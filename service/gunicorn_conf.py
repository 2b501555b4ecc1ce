"""gunicorn settings for every way the API is served (`gunicorn -c python:service.gunicorn_conf`).

gunicorn itself answers a request it cannot parse (a request line over 4094 bytes, headers too
large, a malformed line) before the app sees it, with an HTML page. Those answers go through
this module's writer instead, so they are RFC 9457 problems like every other error.
"""

from __future__ import annotations

import json

from gunicorn import util

from service.errors import HTTP_CODES, PROBLEM_JSON, problem_document
from service.security import NOSNIFF


def problem_bytes(status: int, reason: str, detail: str) -> bytes:
    body = json.dumps(problem_document(status, HTTP_CODES.get(status, "http_error"), detail,
                                       reason)).encode()
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {PROBLEM_JSON}\r\nContent-Length: {len(body)}\r\n"
            f"{NOSNIFF[0]}: {NOSNIFF[1]}\r\n\r\n")
    return head.encode("latin-1") + body


def write_problem(sock, status_int: int, reason: str, mesg: str) -> None:
    # gunicorn's workers call util.write_error for these answers and offer no hook of their own.
    if status_int == 501:
        # A transfer coding gunicorn does not read (gzip, identity, ...): the client's request
        # is what is wrong, and it says so as a 4xx like every other malformed request.
        status_int, reason = 400, "Bad Request"
    util.write_nonblock(sock, problem_bytes(status_int, reason, mesg))


util.write_error = write_problem

# Timeouts and limits (the command line overrides any of them). gunicorn reads a request in the
# thread that serves it, so a client dripping its headers holds that thread: the deployment runs
# behind nginx (deploy/nginx), which reads every request whole first. These bound the rest.
timeout = 30            # a worker silent this long (a stuck request) is restarted
graceful_timeout = 30   # on restart, requests under way get this long to finish
keepalive = 5           # an idle kept-alive connection is closed after this
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190
# gunicorn 25.1+ opens a control socket for gunicornc at one path per user
# ($XDG_RUNTIME_DIR or ~/.gunicorn/gunicorn.ctl): two servers on one machine would share it, and
# the first to exit removes the other's. Nothing here uses gunicornc.
control_socket_disable = True
