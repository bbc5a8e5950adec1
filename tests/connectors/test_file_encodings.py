"""Text files in other encodings: strict UTF-8 first, then charset-normalizer.

The old chain (UTF-8, Windows-1252, Latin-1) read every Cyrillic, Greek, Japanese, Chinese,
Korean, Hebrew and Central European file as Western mojibake: of 16 short samples in 12
languages 4 came out right, 13 now (Turkish in Windows-1254, Big5 and EUC-JP are still guessed
wrong by charset-normalizer on texts this short).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from connectors.files import Folders, read_file, search_files
from connectors.files.extract import decode_text

# Short real-language texts, each in the code page its language used before UTF-8.
SAMPLES = [
    (
        "Привет! Это короткое письмо о встрече в пятницу. Мы обсудим бюджет на следующий год, "
        "планы отдела и отпуск летом. Пожалуйста, принесите отчёт.",
        "cp1251",
        "windows-1251",
    ),
    (
        "Привет! Это короткое письмо о встрече в пятницу. Мы обсудим бюджет.",
        "koi8_r",
        "koi8-r",
    ),
    (
        "こんにちは。来週の会議について連絡します。資料は金曜日までに送ってください。"
        "よろしくお願いします。東京本社にて。",
        "shift_jis",
        "shift_jis",
    ),
    (
        "你好！下周一上午十点在会议室开会，讨论明年的预算和项目计划。请提前准备好相关材料，谢谢。",
        "gb18030",
        "gb18030",
    ),
    (
        "Καλημέρα σας. Η συνάντηση θα γίνει την Παρασκευή στο γραφείο της Αθήνας. Παρακαλώ "
        "φέρτε την αναφορά του μήνα.",
        "iso8859_7",
        "windows-1253",
    ),
    ("안녕하세요. 다음 주 회의 일정을 알려드립니다. 감사합니다.", "euc_kr", "cp949"),
    ("שלום, הפגישה תתקיים ביום שישי במשרד. תודה רבה.", "cp1255", "windows-1255"),
    ("Zażółć gęślą jaźń. Proszę o przesłanie dokumentów do środy.", "cp1250", "windows-1250"),
    ("Příliš žluťoučký kůň úpěl ďábelské ódy. Děkuji za zprávu.", "cp1250", "windows-1250"),
]
# Western texts stay Windows-1252: charset-normalizer alone reads the first as mac_latin2
# ("Rťunion") and the second as Windows-1250 ("Trčs cher").
WESTERN = [
    "Réunion à côté du café, déjà prévue à 10 h — très bien.",
    "Très cher Benoît, voilà le reçu de l'hôtel. À bientôt, Françoise",
    "“Thanks,” she said — the invoice is €120, or £100. It’s due on Friday… © 2024",
    "Größe: 5 m², Preis: 30 €. Schöne Grüße aus Köln, Jürgen",
    "café über naïve",
]


@pytest.mark.parametrize(("text", "codec", "name"), SAMPLES)
def test_legacy_code_pages_are_decoded(text: str, codec: str, name: str) -> None:
    assert decode_text(text.encode(codec), complete=True) == (text, name)


@pytest.mark.parametrize("text", WESTERN)
def test_western_text_stays_windows_1252(text: str) -> None:
    assert decode_text(text.encode("cp1252"), complete=True) == (text, "windows-1252")


def test_utf8_and_binary_are_unchanged() -> None:
    assert decode_text("naïve ☕".encode(), complete=True) == ("naïve ☕", "utf-8")
    assert decode_text(bytes(range(1, 32)) * 50 + b"\xff", complete=True) is None


def test_a_truncated_multibyte_file_drops_only_the_cut_character() -> None:
    text, codec, _ = SAMPLES[2]
    data = text.encode(codec)
    decoded = decode_text(data[:-1], complete=False)  # cut inside the last character
    assert decoded is not None and decoded[0] == text[:-1] and decoded[1] == "shift_jis"


def test_read_and_search_find_words_in_a_cyrillic_file(tmp_path: Path) -> None:
    (tmp_path / "письмо.txt").write_bytes(SAMPLES[0][0].encode("cp1251"))
    folders = Folders([tmp_path])
    found = read_file(folders, "письмо.txt")
    assert found.text == SAMPLES[0][0] and found.encoding == "windows-1251"
    assert [m.path for m in search_files(folders, "бюджет")] == ["письмо.txt"]
