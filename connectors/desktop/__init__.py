"""The desktop connector: hand a file, a folder or a web address to the user's own
applications, never a program.

    open_item(folders, path="letters/offer.pdf")     # the default PDF viewer
    open_item(folders, url="https://example.org/")   # the default browser
    show_folder(folders, "letters/offer.pdf")        # the file manager, in that folder

No Qt, no model, no policy: the gate asks before every call; this code opens only
documents, images, sound, video and text (by name, content and MIME type), refuses programs,
scripts and launchers again by the same three looks, anything outside the folders, and web
names that lead to this computer or the local network. ``check_item`` makes every check
without opening anything.
"""

from connectors.desktop.opener import DesktopError, Opened, check_item, open_item, show_folder
from connectors.desktop.programs import program_by_content, program_by_mime, program_by_name

__all__ = [
    "DesktopError",
    "Opened",
    "check_item",
    "open_item",
    "program_by_content",
    "program_by_mime",
    "program_by_name",
    "show_folder",
]
