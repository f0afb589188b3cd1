#!/usr/bin/env python3
"""Write an iotrial trace (docs/TRACE-FORMAT.md) by hand, for tests that
need paths no capture makes easily (a tab, an escape sequence) or a
trace cut short, without root or BPF.

    mktrace.py OUT [--cut N] [--no-end] PATH...

Each PATH (Python escapes allowed: '\\t', '\\x1b') becomes a regular
file that existed, opened, read 4 KiB at offset 0 and closed by thread
1, a millisecond apart. --no-end leaves out the END record; --cut N
drops the last N bytes of what was written.
"""
import struct
import sys


def record(rtype, payload):
    return struct.pack("<II", rtype, len(payload)) + payload


def event(ts_ns, op, file_id, offset=0, size=0, ret=0, arg=0, fd=-1):
    return struct.pack("<QQIHHIIQQqIi", ts_ns, 1000, 1, op, 0, file_id, 0,
                       offset, size, ret, arg, fd)


def main(argv):
    out, cut, end, paths = None, 0, True, []
    i = 0
    while i < len(argv):
        if argv[i] == "--cut":
            cut = int(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--no-end":
            end = False
        elif out is None:
            out = argv[i]
        else:
            paths.append(argv[i].encode().decode("unicode_escape")
                         .encode("latin-1"))
        i += 1
    data = b"IOTRACE\n" + struct.pack("<HHI", 1, 2, 16)
    key, val = b"layer", b"file"
    data += record(1, struct.pack("<H", len(key)) + key +
                   struct.pack("<H", len(val)) + val)
    events = b""
    n = 0
    for fid, path in enumerate(paths, 1):
        data += record(2, struct.pack("<IBBHQQQ", fid, 1, 1, len(path),
                                      0, 0, 8192) + path)
        t = fid * 1000000
        fd = 2 + fid
        events += event(t, 1, fid, ret=fd, fd=fd)          # open
        events += event(t + 1000, 3, fid, 0, 4096, 4096, fd=fd)  # read
        events += event(t + 2000, 2, fid, fd=fd)           # close
        n += 3
    if events:
        data += record(3, events)
    if end:
        data += record(4, struct.pack("<QQQQQQ", n, 0, n * 1000000, 0, 0, 0))
    if cut:
        data = data[:-cut]
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main(sys.argv[1:])
