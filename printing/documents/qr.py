"""QR codes as raw PDF vector paths.

reportlab's own QR widget costs ~17 ms a code. Here a code is one filled
path of rectangles (one per horizontal run of dark modules) in module units,
scaled by a single transformation matrix. The module matrix comes from
zxing-cpp's C++ encoder (~0.25 ms a code) when it is installed, else from
segno (pure Python, ~2 ms a code, with a fixed mask pattern so it skips
the search for the "best" of eight masks; every mask is valid for readers).
"""

from __future__ import annotations

from types import ModuleType

import numpy
import segno

zxingcpp: ModuleType | None
try:  # the fast encoder; optional so a platform without its wheel still prints
    import zxingcpp
except ImportError:  # pragma: no cover - exercised only without zxing-cpp
    zxingcpp = None

QUIET_ZONE = 4  # modules of white border the standard asks for


def qr_matrix_segno(data: str) -> numpy.ndarray:
    code = segno.make(data, error="m", micro=False, mask=0, boost_error=False)
    return numpy.array(code.matrix, dtype=bool)


def qr_matrix_zxing(data: str) -> numpy.ndarray:
    if zxingcpp is None:  # callers use segno then (qr_matrix)
        raise RuntimeError("zxing-cpp is not installed")
    code = zxingcpp.create_barcode(data, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    return numpy.asarray(code.to_image(scale=1, add_quiet_zones=False)) < 128


def qr_matrix(data: str) -> numpy.ndarray:
    """Dark (True) and light modules of the QR code for ``data``, no quiet zone."""
    return qr_matrix_zxing(data) if zxingcpp is not None else qr_matrix_segno(data)


def qr_pdf_operators(data: str, *, x: float, y: float, size: float) -> str:
    """PDF content-stream operators drawing ``data`` as a QR code.

    ``(x, y)`` is the lower-left corner and ``size`` the side of the square
    including the quiet zone, in points.
    """
    matrix = qr_matrix(data)
    n = len(matrix)
    # Runs of dark modules per row: +1 where a run starts, -1 after it ends.
    edges = numpy.diff(numpy.pad(matrix.astype(numpy.int8), ((0, 0), (1, 1))), axis=1)
    rows, starts = numpy.nonzero(edges == 1)
    ends = numpy.nonzero(edges == -1)[1]
    ops = "\n".join(
        f"{s} {n - 1 - r} {e - s} 1 re"
        for r, s, e in zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True)
    )
    scale = size / (n + 2 * QUIET_ZONE)
    offset = QUIET_ZONE * scale
    return (
        f"q 1 0 0 1 {x + offset:.2f} {y + offset:.2f} cm {scale:.4f} 0 0 {scale:.4f} 0 0 cm 0 g\n"
        f"{ops}\nf Q"
    )
