#!/usr/bin/env python3
# httpfake.py MODE PORTFILE [DIR]: the servers a lab should not have, for
# tests/host/upload.t. Listens on a free port of 127.0.0.1, writes the
# port to PORTFILE once it listens, and serves until killed:
#   silent  accepts and never reads nor answers
#   close   accepts and closes at once
#   500     reads the request, answers 500 Internal Server Error
#   half    reads the head and half the body, then neither reads nor
#           answers (a small receive buffer, so the sender stalls)
#   early201, early413
#           answer 201 Created (or 413 Request Entity Too Large) as soon
#           as the head is read, before any of the body, then read and
#           drop the rest (a small receive buffer, so the sender cannot
#           have sent it all before the answer comes)
#   dav409  a strict WebDAV server (Apache's mod_dav, RFC 4918 9.7.1):
#           a PUT into a folder that does not exist is 409 Conflict;
#           MKCOL makes one folder (405 when it exists); files go to DIR
#   landed  keeps what is PUT, in memory, but the first PUT of each name
#           is stored and its answer lost (the connection closed); a PUT
#           with "If-None-Match: *" onto a name it holds is 412, a GET
#           of it gives the bytes; each store is logged to DIR/landed.log
import os
import socket
import sys
import threading
import urllib.parse

mode, portfile = sys.argv[1], sys.argv[2]
root = sys.argv[3] if len(sys.argv) > 3 else None
held = []
store = {}
lock = threading.Lock()


def read_head(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        got = conn.recv(4096)
        if not got:
            return None, b""
        data += got
    head, rest = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return (method, target, fields), rest


def read_body(conn, rest, length):
    while len(rest) < length:
        got = conn.recv(65536)
        if not got:
            break
        rest += got
    return rest[:length]


def answer(conn, status, body=b""):
    conn.sendall(b"HTTP/1.1 %s\r\nContent-Length: %d\r\n"
                 b"Content-Type: text/plain\r\nConnection: close\r\n\r\n%s"
                 % (status.encode(), len(body), body))


def dav(conn, method, target, body):
    path = urllib.parse.unquote(target)
    local = os.path.join(root, path.lstrip("/"))
    parent = os.path.dirname(local.rstrip("/"))
    if not os.path.isdir(parent):
        return answer(conn, "409 Conflict", b"no parent collection\n")
    if method == "MKCOL":
        if os.path.exists(local):
            return answer(conn, "405 Method Not Allowed")
        os.mkdir(local)
        return answer(conn, "201 Created")
    if method == "PUT":
        with open(local, "wb") as f:
            f.write(body)
        return answer(conn, "201 Created")
    answer(conn, "405 Method Not Allowed")


def landed(conn, method, target, fields, body):
    with lock:
        have = target in store
        if method == "PUT" and not have:
            store[target] = body
            os.makedirs(root, exist_ok=True)
            with open(os.path.join(root, "landed.log"), "a") as f:
                f.write("stored %s\n" % target)
    if method == "PUT" and not have:
        conn.close()
    elif method == "PUT" and fields.get("if-none-match") == "*":
        answer(conn, "412 Precondition Failed")
    elif method == "PUT":
        store[target] = body
        answer(conn, "204 No Content")
    elif method == "GET" and have:
        answer(conn, "200 OK", store[target])
    else:
        answer(conn, "404 Not Found")
    conn.close()


def serve(conn):
    if mode == "silent":
        held.append(conn)
        return
    if mode == "close":
        conn.close()
        return
    req, rest = read_head(conn)
    if not req:
        conn.close()
        return
    method, target, fields = req
    length = int(fields.get("content-length", "0"))
    if mode == "half":
        read_body(conn, rest, length // 2)
        held.append(conn)
        return
    if mode.startswith("early"):
        status = {"early201": "201 Created",
                  "early413": "413 Request Entity Too Large"}[mode]
        answer(conn, status, b"answered before the body\n")
        try:
            while conn.recv(65536):
                pass
        except OSError:
            pass
        conn.close()
        return
    body = read_body(conn, rest, length)
    if mode == "landed":
        return landed(conn, method, target, fields, body)
    if mode == "500":
        answer(conn, "500 Internal Server Error", b"disk full\n")
    elif mode == "dav409":
        dav(conn, method, target, body)
    conn.close()


def main():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if mode == "half" or mode.startswith("early"):
        # Inherited by accepted sockets: the sender fills it soon.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % s.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=serve, args=(conn,), daemon=True).start()


main()
