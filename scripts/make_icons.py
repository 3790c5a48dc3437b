"""Draw the app icons (static/icons/icon-192.png, icon-512.png) with no image library: a card with a red diamond."""

import struct
import zlib
from pathlib import Path

GREEN, WHITE, RED = (20, 83, 45), (251, 248, 241), (185, 28, 28)


def pixel(x: float, y: float) -> tuple:
    """Colour at (x, y) in a unit square."""
    if abs(x - 0.5) + abs(y - 0.5) * 0.8 < 0.17:
        return RED
    if 0.25 < x < 0.75 and 0.15 < y < 0.85:
        return WHITE
    return GREEN


def png(size: int) -> bytes:
    rows = b"".join(
        b"\0" + b"".join(bytes(pixel((i + 0.5) / size, (j + 0.5) / size)) for i in range(size)) for j in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path(__file__).resolve().parent.parent / "static" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png(size))
