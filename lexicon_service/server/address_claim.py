"""An exclusive claim on the ports `serve` listens on.

The processes of one `serve --processes N` share their ports (SO_REUSEPORT), and the kernel lets any
other socket of the same user join such a group: a second `serve` on ports in use would start and
take half the clients, with its own lexicons and games database. So the process that owns the ports
(the supervisor, or a lone server) claims each before anything listens, and holds the claim while it
lives: an abstract Unix socket named after the port (Linux; the kernel frees it when the holder dies,
even by SIGKILL, and tells a second claimant the holder's pid). A port some other program already
listens on is found by binding it once without SO_REUSEPORT. Either way `serve` is refused at once,
naming the port and the holder's pid when it can be known.
"""

from __future__ import annotations

import errno
import os
import socket
import struct
import sys

CLAIM_NAME = "lexicon-service:tcp-port:{port}"


class PortInUse(OSError):
    """The port is claimed by another `serve` or listened on by another program."""


class PortClaim:
    """The claims held; close() releases them (else the process's end does)."""

    def __init__(self) -> None:
        self._sockets: list[socket.socket] = []

    def hold(self, sock: socket.socket) -> None:
        self._sockets.append(sock)

    def close(self) -> None:
        for sock in self._sockets:
            sock.close()
        self._sockets.clear()


def claim_ports(ports, probe: bool = True) -> PortClaim:
    """Claim each (what, host, port) of `ports` (what: 'gRPC' or 'HTTP'; port 0 is skipped); PortInUse
    naming the first one another server holds. `probe`: also refuse a port a socket is bound to."""
    claim = PortClaim()
    try:
        for what, host, port in ports:
            if not port:
                continue
            _claim_one(claim, what, port)
            if probe:
                _probe(what, host, port)
    except BaseException:
        claim.close()
        raise
    return claim


def _claim_one(claim: PortClaim, what: str, port: int) -> None:
    if not sys.platform.startswith("linux"):  # abstract sockets are Linux's; the probe still runs
        return
    name = "\0" + CLAIM_NAME.format(port=port)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(name)
        sock.listen(16)
    except OSError as exc:
        sock.close()
        if exc.errno != errno.EADDRINUSE:
            return  # no claim possible here (a sandbox): the probe and the kernel's own refusal remain
        pid = _claimant(name)
        holder = f" (pid {pid})" if pid else ""
        raise PortInUse(errno.EADDRINUSE, f"port {port} ({what}) is in use by another lexicon-service "
                        f"serve{holder}: stop it first, or choose another port") from None
    claim.hold(sock)


def _claimant(name: str) -> int | None:
    """The pid of the process holding the abstract socket `name` (its listening credentials)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(1.0)
        probe.connect(name)
        raw = probe.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        return struct.unpack("3i", raw)[0] or None
    except OSError:
        return None
    finally:
        probe.close()


def _probe(what: str, host: str, port: int) -> None:
    """Bind every address of host:port once without SO_REUSEPORT: the kernel refuses it while any
    socket listens there, whoever set it up and however."""
    host = host.strip("[]") or None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError):
        return  # the server's own bind reports an unknown host
    for family, kind, proto, _canon, sockaddr in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # connections in TIME_WAIT are no holder
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(sockaddr)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                pid = listener_pid(port)
                holder = f"pid {pid}" if pid else "another program"
                raise PortInUse(errno.EADDRINUSE, f"port {port} ({what}, {sockaddr[0]}) is in use by {holder}: "
                                "stop it first, or choose another port") from None
        finally:
            sock.close()


def listener_pid(port: int) -> int | None:
    """The pid of a process (of this user, or any as root) with a socket listening on TCP `port`."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as fh:
                next(fh, None)
                for line in fh:
                    fields = line.split()
                    if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                        inodes.add(f"socket:[{fields[9]}]")
        except (OSError, ValueError):
            continue
    if not inodes:
        return None
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            for fd in os.scandir(f"/proc/{entry.name}/fd"):
                if os.readlink(fd.path) in inodes:
                    return int(entry.name)
        except OSError:
            continue
    return None
