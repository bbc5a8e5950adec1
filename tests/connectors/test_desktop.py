"""Opening files, folders and web addresses with the desktop's default application.

Everything is real (files on disk, the confinement walk, the content checks, the process
start) except the opener itself: a stub ``xdg-open`` first on PATH records the argument it
was given, as the desktop's would receive it. A stub ``xdg-mime`` stands in for the
desktop's MIME database where a test needs the desktop to have an opinion.
"""

from __future__ import annotations

import shutil
import stat
import sys
import zipfile
from pathlib import Path

import pytest

from connectors.desktop import DesktopError, open_item, show_folder
from connectors.files import FileAccessError, Folders

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="xdg-open")

PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


class Desktop:
    """The stub opener's record, and knobs for what the desktop answers."""

    def __init__(self, bin_dir: Path, log: Path) -> None:
        self.bin_dir, self.log = bin_dir, log

    @property
    def opened(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []

    def stub(self, name: str, body: str) -> None:
        script = self.bin_dir / name
        script.write_text(f"#!/bin/sh\n{body}\n")
        script.chmod(script.stat().st_mode | stat.S_IXUSR)


@pytest.fixture
def desktop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Desktop:
    bin_dir, log = tmp_path / "bin", tmp_path / "opened.log"
    bin_dir.mkdir()
    found = Desktop(bin_dir, log)
    found.stub("xdg-open", f'printf "%s\\n" "$@" >> "{log}"')
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    return found


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "Documents"
    (folder / "letters").mkdir(parents=True)
    (folder / "letters" / "offer.pdf").write_bytes(PDF)
    return folder


def test_a_document_opens_with_its_absolute_path(desktop: Desktop, home: Path) -> None:
    opened = open_item(Folders([home]), path="letters/offer.pdf")
    assert (opened.target, opened.kind) == ("letters/offer.pdf", "file")
    assert desktop.opened == [str((home / "letters" / "offer.pdf").resolve())]


def test_a_word_document_opens_but_a_java_program_in_a_zip_does_not(
    desktop: Desktop, home: Path
) -> None:
    with zipfile.ZipFile(home / "report.docx", "w") as docx:
        docx.writestr("[Content_Types].xml", "<Types/>")
        docx.writestr("word/document.xml", "<w:document/>")
    with zipfile.ZipFile(home / "photos.zip", "w") as jar:
        jar.writestr("META-INF/MANIFEST.MF", "Main-Class: Evil\n")
        jar.writestr("Evil.class", b"\xca\xfe\xba\xbe")
    open_item(Folders([home]), path="report.docx")
    with pytest.raises(DesktopError, match="Java or Android program"):
        open_item(Folders([home]), path="photos.zip")
    assert desktop.opened == [str((home / "report.docx").resolve())]


@pytest.mark.parametrize(
    ("name", "content", "why"),
    [
        ("invoice.pdf", None, "Linux program"),  # /bin/true, renamed
        ("notes.txt", b"#!/bin/sh\nrm -rf ~\n", "starts with #!"),
        ("notes.md", b"\xef\xbb\xbf#!/usr/bin/env python3\n", "starts with #!"),
        ("readme.txt", b"# hi\n[Desktop Entry]\nExec=sh -c evil\n", "launcher"),
        ("link.txt", b"[InternetShortcut]\nURL=file:///bin/sh\n", "launcher"),
        ("scan.jpg", b"MZ\x90\x00\x03\x00\x00\x00", "Windows program"),
        ("clip.mp4", b"MZ\x90\x00ftypisom\x00\x00", "Windows program"),  # a media header too
        ("setup.exe", b"just text", ".exe"),
        ("backup.sh", b"echo hi\n", ".sh"),
        ("start.desktop", b"nothing here", ".desktop"),
        ("bookmark.webloc", b"<plist/>", ".webloc"),
    ],
)
def test_programs_scripts_and_launchers_are_refused_by_name_or_content(
    desktop: Desktop, home: Path, name: str, content: bytes | None, why: str
) -> None:
    target = home / name
    if content is None:
        shutil.copyfile("/bin/true", target)
    else:
        target.write_bytes(content)
    with pytest.raises(DesktopError) as caught:
        open_item(Folders([home]), path=name)
    assert caught.value.reason == "program" and why in caught.value.message
    assert "could run it" in caught.value.message
    assert desktop.opened == []


def test_what_the_desktop_calls_a_program_is_refused(desktop: Desktop, home: Path) -> None:
    (home / "menu.txt").write_text("Soup of the day\n")
    (home / "list.txt").write_text("Milk\n")
    desktop.stub(
        "xdg-mime",
        'case "$3" in *menu.txt) echo application/x-desktop;; *) echo text/plain;; esac',
    )
    with pytest.raises(DesktopError, match="the desktop calls it application/x-desktop"):
        open_item(Folders([home]), path="menu.txt")
    open_item(Folders([home]), path="list.txt")
    assert desktop.opened == [str((home / "list.txt").resolve())]


def test_nothing_outside_the_allowed_folders_hidden_or_linked(
    desktop: Desktop, home: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.pdf"
    secret.write_bytes(PDF)
    (home / "escape.pdf").symlink_to(secret)
    (home / ".hidden.pdf").write_bytes(PDF)
    folders = Folders([home])
    for path, reason in [
        (str(secret), "outside"),
        ("../secret.pdf", "outside"),
        ("escape.pdf", "link"),
        (".hidden.pdf", "hidden"),
        ("letters/missing.pdf", "not_found"),
    ]:
        with pytest.raises(FileAccessError) as caught:
            open_item(folders, path=path)
        assert caught.value.reason == reason, (path, caught.value.message)
    assert desktop.opened == []


def public(host: str) -> list[str]:
    """A stand-in DNS (the sandbox has none): every name is one public address."""
    return ["93.184.215.14"]


def test_web_addresses_open_and_nothing_else_does(desktop: Desktop) -> None:
    opened = open_item(None, url="https://example.org/menu?day=friday", resolver=public)
    assert opened.kind == "web address"
    for bad in [
        "file:///etc/passwd",
        "javascript:alert(1)",
        "ftp://example.org/x",
        "https://user:pw@example.org/",
        "https://example.org/a b",
        "--help",
    ]:
        with pytest.raises(DesktopError) as caught:
            open_item(None, url=bad, resolver=public)
        assert caught.value.reason == "url", bad
    with pytest.raises(DesktopError, match="either a path or a web address"):
        open_item(None, path="a.pdf", url="https://example.org/")
    assert desktop.opened == ["https://example.org/menu?day=friday"]


def test_an_opener_that_fails_or_is_missing_says_so(
    desktop: Desktop, home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    desktop.stub("xdg-open", "exit 3")
    with pytest.raises(DesktopError) as caught:
        open_item(Folders([home]), path="letters/offer.pdf")
    assert caught.value.reason == "failed" and "no application is set up" in caught.value.message
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(DesktopError, match=r"no 'xdg-open' command .*xdg-utils"):
        open_item(None, url="https://example.org/", resolver=public)


def test_show_folder_opens_the_folder_a_file_is_in(desktop: Desktop, home: Path) -> None:
    folders = Folders([home])
    assert show_folder(folders, "letters/offer.pdf").target == "letters"
    assert show_folder(folders, "").target == "."
    assert show_folder(folders, ".").target == "."
    assert show_folder(folders, "letters").kind == "folder"
    with pytest.raises(FileAccessError):
        show_folder(folders, "/etc")
    real = str(home.resolve())
    assert desktop.opened == [f"{real}/letters", real, real, f"{real}/letters"]


def test_a_folder_path_in_open_item_opens_the_folder(desktop: Desktop, home: Path) -> None:
    assert open_item(Folders([home]), path="letters").kind == "folder"
    assert desktop.opened == [str((home / "letters").resolve())]


# -- issue #37, class 8: an allow-list, by name and by content --------------------------------

LAUNCHERS = [
    ("invoice.jnlp", b'<?xml version="1.0"?><jnlp codebase="https://evil.example/"></jnlp>'),
    ("app.flatpakref", b"[Flatpak Ref]\nName=org.evil.App\nUrl=https://evil.example/repo\n"),
    ("setup.appinstaller", b'<?xml version="1.0"?><AppInstaller Uri="https://evil.example"/>'),
    ("update.msix", b"PK\x03\x04AppxManifest.xml"),
    ("files.search-ms", b'<?xml version="1.0"?><searchConnectorDescription/>'),
    ("share.library-ms", b"<libraryDescription/>"),
    ("page.html", b"<script>fetch('file:///etc/passwd')</script>"),
    ("logo.svg", b"<svg onload='alert(1)'/>"),
    ("no-suffix", b"just words"),
    ("archive.tar.gz", b"\x1f\x8b\x08\x00"),
]


@pytest.mark.parametrize(("name", "content"), LAUNCHERS)
def test_only_documents_images_sound_video_and_text_open(
    desktop: Desktop, home: Path, name: str, content: bytes
) -> None:
    (home / name).write_bytes(content)
    with pytest.raises(DesktopError) as caught:
        open_item(Folders([home]), path=name)
    assert caught.value.reason == "program"
    assert "only documents, images, sound, video and text" in caught.value.message
    assert desktop.opened == []


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("scan.pdf", b"<jnlp codebase='https://evil.example/'/>"),  # named a PDF, is not one
        ("photo.jpg", b"%PDF-1.4\n"),
        ("song.mp3", b"[Flatpak Ref]\nUrl=https://evil.example/\n"),
        ("notes.txt", b"\x00\x01\x02binary\x00"),
        ("report.docx", b"not a zip at all"),
    ],
)
def test_a_name_from_the_list_must_match_its_content(
    desktop: Desktop, home: Path, name: str, content: bytes
) -> None:
    (home / name).write_bytes(content)
    with pytest.raises(DesktopError, match="its content is something else"):
        open_item(Folders([home]), path=name)
    assert desktop.opened == []


def test_what_the_desktop_calls_something_else_is_refused(desktop: Desktop, home: Path) -> None:
    (home / "menu.txt").write_text("Soup of the day\n")
    desktop.stub("xdg-mime", "echo application/x-java-jnlp-file")
    with pytest.raises(DesktopError, match="the desktop calls it application/x-java-jnlp-file"):
        open_item(Folders([home]), path="menu.txt")
    assert desktop.opened == []


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("offer.pdf", PDF),
        ("photo.JPG", b"\xff\xd8\xff\xe0\x00\x10JFIF"),
        ("scan.png", b"\x89PNG\r\n\x1a\n\x00\x00"),
        ("song.mp3", b"ID3\x04\x00"),
        ("clip.mp4", b"\x00\x00\x00\x18ftypmp42\x00\x00"),
        ("voice.m4a", b"\x00\x00\x00\x1cftypM4A \x00\x00"),
        ("film.mkv", b"\x1aE\xdf\xa3\x9f"),
        ("notes.md", "# Courses\n- pain, café\n".encode()),
        ("old.txt", "caf\xe9 cr\xe8me\n".encode("latin-1")),
        ("budget.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00"),
        ("letter.rtf", b"{\\rtf1\\ansi hello}"),
        ("empty.txt", b""),
    ],
)
def test_the_kinds_people_open_still_open(
    desktop: Desktop, home: Path, name: str, content: bytes
) -> None:
    (home / name).write_bytes(content)
    assert open_item(Folders([home]), path=name).kind == "file"
    assert desktop.opened == [str((home / name).resolve())]


def test_a_web_name_that_resolves_to_this_computer_or_the_lan_is_refused(
    desktop: Desktop,
) -> None:
    """As the web reader does: the name is looked up and every address must be public."""
    for addresses in (["127.0.0.1"], ["10.0.0.5"], ["93.184.215.14", "192.168.1.1"], ["::1"]):
        with pytest.raises(DesktopError) as caught:
            resolver = (lambda found: lambda host: found)(addresses)
            open_item(None, url="https://intranet.example.com/", resolver=resolver)
        assert caught.value.reason == "url", addresses
    assert desktop.opened == []
