"""Reading rendered PDFs back in tests: text (pypdf) and QR codes (pdfium + zxing)."""

from __future__ import annotations

import io

import pypdf
import pypdfium2
import zxingcpp


def pdf_pages(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def pdf_text(pdf: bytes) -> str:
    return "\n".join(pdf_pages(pdf))


DUO_AREAS = ("YK", "RK", "YO", "RO")


def area_labels(text: str) -> list[str]:
    """The DUO diagrams' area labels: lines of a PDF's text that are an area code alone."""
    return [line.strip() for line in text.splitlines() if line.strip() in DUO_AREAS]


def page_size_mm(pdf: bytes, index: int = 0) -> tuple[int, int]:
    box = pypdf.PdfReader(io.BytesIO(pdf)).pages[index].mediabox
    return round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)


def qr_codes(pdf: bytes, index: int = 0, scale: float = 2.0) -> list[str]:
    """Every QR code on page ``index``, decoded from a rendered bitmap."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[index].render(scale=scale).to_pil()
    finally:
        document.close()
    found = zxingcpp.read_barcodes(image)
    return [r.text for r in found if r.format == zxingcpp.BarcodeFormat.QRCode]
