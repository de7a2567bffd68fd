"""perf/heap_holders.py on a small HPROF dump written here (no JVM): perf/.venv/bin/python -m unittest discover -s perf."""

import os
import struct
import tempfile
import unittest

import heap_holders


def record(tag: int, body: bytes) -> bytes:
    return struct.pack(">BII", tag, 0, len(body)) + body


def ident(value: int) -> bytes:
    return struct.pack(">Q", value)


def class_dump(class_id: int, superclass: int, statics: list[tuple[int, int]], fields: list[int]) -> bytes:
    """statics: (name id, referenced object id); fields: types of the instance fields."""
    out = b"\x20" + ident(class_id) + struct.pack(">I", 0) + ident(superclass) + ident(0) * 5 + struct.pack(">I", 0)
    out += struct.pack(">H", 1) + struct.pack(">HB", 1, 10) + struct.pack(">I", 7)  # one int constant
    out += struct.pack(">H", len(statics))
    for name, target in statics:
        out += ident(name) + b"\x02" + ident(target)
    out += struct.pack(">H", len(fields))
    for i, t in enumerate(fields):
        out += ident(90 + i) + bytes([t])
    return out


def dump() -> bytes:
    names = {1: "Holder", 2: "Base", 3: "Registry", 4: "java/lang/String"}
    out = b"JAVA PROFILE 1.0.2\0" + struct.pack(">I", 8) + struct.pack(">Q", 0)
    for name_id, name in names.items():
        out += record(0x01, ident(name_id) + name.encode())
    for serial, (class_id, name_id) in enumerate([(11, 1), (12, 2), (13, 3), (14, 4)]):
        out += record(0x02, struct.pack(">I", serial) + ident(class_id) + struct.pack(">I", 0) + ident(name_id))
    heap = b"".join([
        b"\xff" + ident(100),  # a root
        class_dump(12, 0, [], [10]),  # Base: an int field
        class_dump(11, 12, [], [2]),  # Holder extends Base: an object field after Base's int
        class_dump(13, 0, [(95, 400)], []),  # Registry: a static field
        class_dump(14, 0, [], [2]),  # String: its value
        # a Holder (its own field first, then Base's) holding a 1000-byte array
        b"\x21" + ident(100) + struct.pack(">I", 0) + ident(11) + struct.pack(">I", 12) + ident(200)
        + struct.pack(">i", 5),
        # a String held by an Object[] and holding 10 bytes
        b"\x22" + ident(500) + struct.pack(">I", 0) + struct.pack(">I", 2) + ident(11) + ident(0) + ident(600),
        b"\x21" + ident(600) + struct.pack(">I", 0) + ident(14) + struct.pack(">I", 8) + ident(700),
        b"\x23" + ident(200) + struct.pack(">I", 0) + struct.pack(">I", 1000) + b"\x08" + bytes(1000),
        b"\x23" + ident(300) + struct.pack(">I", 0) + struct.pack(">I", 4) + b"\x0a" + bytes(16),
        b"\x23" + ident(400) + struct.pack(">I", 0) + struct.pack(">I", 3) + b"\x05" + bytes(6),
        b"\x23" + ident(700) + struct.pack(">I", 0) + struct.pack(">I", 10) + b"\x08" + bytes(10),
    ])
    return out + record(0x1C, heap) + record(0x2C, b"")


class HeapHoldersTest(unittest.TestCase):

    def setUp(self):
        with tempfile.NamedTemporaryFile(suffix=".hprof", delete=False) as f:
            f.write(dump())
        self.addCleanup(os.unlink, f.name)
        self.heap = heap_holders.read(f.name)

    def test_arrays_are_summed_by_the_class_that_holds_them_fields_of_superclasses_included(self):
        by_holder, counts, _ = heap_holders.holders(self.heap)
        self.assertEqual(by_holder[("byte[]", "Holder")], 16 + 1000)
        self.assertEqual(counts[("byte[]", "Holder")], 1)
        self.assertEqual(by_holder[("char[]", "static field of Registry")], 16 + 6)
        self.assertEqual(by_holder[("int[]", "unreferenced")], 16 + 16)

    def test_a_wrappers_arrays_are_also_summed_by_who_holds_the_wrapper(self):
        by_holder, _, by_wrapper_holder = heap_holders.holders(self.heap)
        self.assertEqual(by_holder[("byte[]", "java.lang.String")], 16 + 10)
        self.assertEqual(by_wrapper_holder[("java.lang.String", "Holder[]")], 16 + 10)

    def test_a_file_that_is_not_a_dump_is_refused(self):
        with tempfile.NamedTemporaryFile(suffix=".hprof", delete=False) as f:
            f.write(b"JAVA PROFILE 1.0.2\0" + struct.pack(">I", 3) + bytes(8))
        self.addCleanup(os.unlink, f.name)
        with self.assertRaises(ValueError):
            heap_holders.read(f.name)


if __name__ == "__main__":
    unittest.main()
