"""PDF text: pypdf (what `read_file` and `search_files` use) against pypdfium2 (PDFium, the
engine of Chrome), on the same files: time for the text of every page, and how far the two
texts agree (word F1), so a faster library is not bought with worse text.

    python bench/pdf_text.py [PDF ...] [--runs 3] [--json out.json]

pypdfium2 is not a dependency of Hearth (see docs/benchmarks.md: native code stays out of the
app's process until PDF parsing runs in a sandboxed subprocess):
``pip install pypdfium2~=5.15.2``.

Without arguments: the PDFs Debian installs with libtasn1-doc and shared-mime-info, if present,
and a 100-page text PDF written here. Also the folder case that matters: `search_files` reads
every PDF under a 20 s cap (``SEARCH_MAX_SECONDS``), so how many 20-page PDFs fit in it.
"""

from __future__ import annotations

import argparse
import io
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import _common
from _common import interleave, median, report

DEBIAN_PDFS = (
    Path("/usr/share/doc/libtasn1-doc/libtasn1.pdf"),
    Path("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf"),
)
SEARCH_MAX_SECONDS = 20


def with_pypdf(data: bytes) -> list[str]:
    from pypdf import PdfReader

    return [(page.extract_text() or "").strip() for page in PdfReader(io.BytesIO(data)).pages]


def with_pdfium(data: bytes) -> list[str]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(data)
    try:
        texts = []
        for page in document:
            textpage = page.get_textpage()
            texts.append(textpage.get_text_bounded().strip())
            textpage.close()
            page.close()
        return texts
    finally:
        document.close()


def text_pdf(pages: int) -> bytes:
    """A plain text PDF (Helvetica, 40 lines a page), offsets computed."""
    line = "The quick brown fox jumps over the lazy dog near the old mill by the river."
    page_ids = [4 + 2 * i for i in range(pages)]
    objects: dict[int, bytes] = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [%s] /Count %d >>"
        % (" ".join(f"{i} 0 R" for i in page_ids).encode(), pages),
        3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    }
    for number, page_id in enumerate(page_ids):
        shown = " ".join(f"(Page {number + 1} line {n}: {line}) Tj 0 -16 Td" for n in range(40))
        stream = f"BT /F1 10 Tf 50 750 Td {shown} ET".encode()
        objects[page_id] = (
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
            b"<< /F1 3 0 R >> >> /Contents %d 0 R >>" % (page_id + 1)
        )
        objects[page_id + 1] = b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream)
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, objects[number])
    xref, size = len(out), max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    out += b"".join(b"%010d 00000 n \n" % offsets[n] for n in range(1, size))
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)
    return bytes(out)


def word_f1(a: str, b: str) -> float:
    """Agreement of two texts as bags of words (1.0: the same words, order aside)."""
    left, right = Counter(a.split()), Counter(b.split())
    common = sum((left & right).values())
    if not common:
        return 0.0
    precision, recall = common / sum(right.values()), common / sum(left.values())
    return 2 * precision * recall / (precision + recall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args()

    files = {p.name: p.read_bytes() for p in (args.pdfs or [p for p in DEBIAN_PDFS if p.exists()])}
    files["generated-100-pages.pdf"] = text_pdf(100)
    results = {}
    for name, data in files.items():

        def timed(extract: Callable[[bytes], list[str]], data: bytes = data) -> Callable[[], float]:
            def run() -> float:
                start = time.perf_counter()
                extract(data)
                return (time.perf_counter() - start) * 1000

            return run

        times = interleave(args.runs, pypdf=timed(with_pypdf), pypdfium2=timed(with_pdfium))
        old, new = with_pypdf(data), with_pdfium(data)
        slow, fast = median(times["pypdf"]), median(times["pypdfium2"])
        results[name] = {
            "pages": len(old),
            "pypdf_ms": round(slow, 1),
            "pypdfium2_ms": round(fast, 1),
            "speed-up": round(slow / fast, 1),
            "word_f1_between_them": round(word_f1("\n".join(old), "\n".join(new)), 3),
            "chars": [sum(map(len, old)), sum(map(len, new))],
        }
    per_page = {
        lib: median([r[f"{lib}_ms"] / r["pages"] for r in results.values()])
        for lib in ("pypdf", "pypdfium2")
    }
    fit = {lib: int(SEARCH_MAX_SECONDS * 1000 / (ms * 20)) for lib, ms in per_page.items()}
    report(
        "pdf_text",
        {"files": results, "ms_per_page": per_page, "20_page_pdfs_in_search_cap": fit},
        args.json,
    )


if __name__ == "__main__":
    _common.ROOT  # noqa: B018 - imported for its sys.path set-up
    main()
