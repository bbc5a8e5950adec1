"""Readable web text: the standard-library extractor (before) against Hearth's lxml pass +
readability-lxml (after), and readability alone, on the public ScrapingHub article-extraction
benchmark (181 news and blog pages with hand-made ground truth), scored by the benchmark's own
``evaluate.py`` (shingle F1, precision, recall). Also: which of seven ways of hiding text each
extractor still lets through (a page made here), the time and the characters per page.

    python bench/web_extraction.py --corpus CHECKOUT [--runs 3] [--json out.json]

CHECKOUT is a clone of github.com/scrapinghub/article-extraction-benchmark (``html/*.html.gz``,
``ground-truth.json``, ``evaluate.py``); nothing of it is copied into this repository.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import _common
from _common import interleave, median, report

from connectors.web.extract import html_to_text, page_text

Extractor = Callable[[str], str]

# One marker per way a page hides text from a reader (and shows it to a scraper).
HIDING = {
    "hidden attribute": '<div hidden>{m}</div>',
    "aria-hidden": '<div aria-hidden="true">{m}</div>',
    "display:none": '<div style="display:none">{m}</div>',
    "visibility:hidden": '<p style="visibility: hidden">{m}</p>',
    "font-size:0": '<p style="font-size:0">{m}</p>',
    "opacity:0": '<p style="opacity:0">{m}</p>',
    "template": "<template>{m}</template>",
}  # fmt: skip
PROSE = (
    "<p>The harbour authority said on Monday that the new ferry terminal will open in May, "
    "two months later than planned, because the steel for the pier arrived late.</p>"
    "<p>Passengers will be able to buy tickets at the terminal and online; the old terminal "
    "closes the week the new one opens, and its car park becomes a bus station.</p>"
    "<p>The mayor called the delay regrettable but said the terminal would serve the town "
    "for fifty years, and that the extra months were spent on safety checks.</p>"
)


def _readability_alone(html: str) -> str:
    from readability import Document

    return page_text(Document(html).summary(html_partial=True))[1]


EXTRACTORS: dict[str, Extractor] = {
    "stdlib (before)": lambda html: page_text(html)[1],
    "readability alone": _readability_alone,
    "lxml pass + readability (after)": lambda html: html_to_text(html)[1],
}


def _load_evaluate(corpus: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("aeb_evaluate", corpus / "evaluate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hidden_kept(extract: Extractor) -> list[str]:
    """The ways of hiding whose marker the extractor let through."""
    markers = {way: f"marker{index}zq" for index, way in enumerate(HIDING)}
    hidden = "".join(HIDING[way].format(m=marker) for way, marker in markers.items())
    page = f"<html><head><title>Ferry</title></head><body><article>{PROSE}{hidden}</article>"
    text = extract(page + "</body></html>")
    return [way for way, marker in markers.items() if marker in text]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, required=True, help="benchmark checkout")
    parser.add_argument("--runs", type=int, default=3, help="timed passes over the corpus")
    parser.add_argument("--bootstrap", type=int, default=1000, help="for the ± figures")
    parser.add_argument("--json", help="write the results here too")
    args = parser.parse_args()

    evaluate = _load_evaluate(args.corpus)
    truth = json.loads((args.corpus / "ground-truth.json").read_text(encoding="utf-8"))
    pages = {
        key: gzip.decompress((args.corpus / "html" / f"{key}.html.gz").read_bytes()).decode(
            "utf-8", "replace"
        )
        for key in truth
    }

    def timed(extract: Extractor) -> Callable[[], float]:
        def run() -> float:
            start = time.perf_counter()
            for html in pages.values():
                extract(html)
            return (time.perf_counter() - start) / len(pages) * 1000

        return run

    times = interleave(args.runs, **{name: timed(f) for name, f in EXTRACTORS.items()})
    results = {}
    for name, extract in EXTRACTORS.items():
        prediction = {key: {"articleBody": extract(html)} for key, html in pages.items()}
        metrics = evaluate.evaluate(truth, prediction, args.bootstrap)
        results[name] = {
            **{k: round(metrics[k], 3) for k in ("f1", "precision", "recall", "accuracy")},
            "f1_std": round(metrics["f1_std"], 3),
            "ms_per_page": round(median(times[name]), 1),
            "chars_per_page": round(
                sum(len(p["articleBody"]) for p in prediction.values()) / len(prediction)
            ),
            "hidden_kept": hidden_kept(extract),
        }
    report("web_extraction", {"pages": len(pages), "extractors": results}, args.json)


if __name__ == "__main__":
    _common.ROOT  # noqa: B018 - imported for its sys.path set-up
    main()
