"""The conversation sidebar: the saved conversations (newest first), New, Rename, Delete and a
search box. It only shows data and asks; the saving and searching happen off the GUI thread
(ui.conversations), reached through the signals below."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.store.conversations import ConversationSummary, SearchHit

ID_ROLE = Qt.ItemDataRole.UserRole
SEARCH_DELAY_MS = 250


class ConversationSidebar(QWidget):
    new_requested = Signal()
    open_requested = Signal(int)
    rename_requested = Signal(int, str)
    delete_requested = Signal(int)
    search_requested = Signal(str)
    list_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Conversations")
        self.current_id: int | None = None
        self.busy = False
        self.rename_dialog: QInputDialog | None = None
        self.delete_box: QMessageBox | None = None
        self._titles: dict[int, str] = {}

        self.search_box = QLineEdit()
        self.search_box.setPlaceholderText("Search conversations")
        self.search_box.setAccessibleName("Search conversations")
        self.search_box.setClearButtonEnabled(True)
        for clear in self.search_box.findChildren(QToolButton):  # Qt gives it no name
            clear.setAccessibleName("Clear the search")
        self.list = QListWidget()
        self.list.setAccessibleName("Conversation list")
        self.list.setWordWrap(True)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setAccessibleDescription("Conversation list note")
        self.new_button = QPushButton("New")
        self.new_button.setAccessibleName("New conversation")
        self.rename_button = QPushButton("Rename")
        self.rename_button.setAccessibleName("Rename conversation")
        self.delete_button = QPushButton("Delete")
        self.delete_button.setAccessibleName("Delete conversation")

        buttons = QHBoxLayout()
        for button in (self.new_button, self.rename_button, self.delete_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.search_box)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.hint)
        layout.addLayout(buttons)

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._run_search)
        self.search_box.textChanged.connect(lambda _text: self._search_timer.start())
        self.list.itemClicked.connect(self._clicked)
        self.list.itemActivated.connect(self._clicked)
        self.list.currentItemChanged.connect(lambda *_: self._update_buttons())
        self.new_button.clicked.connect(self.new_requested.emit)
        self.rename_button.clicked.connect(self.ask_rename)
        self.delete_button.clicked.connect(self.ask_delete)
        self._update_buttons()

    # -- showing -----------------------------------------------------------------------------

    @property
    def searching(self) -> bool:
        return bool(self.search_box.text().strip())

    def show_conversations(self, conversations: list[ConversationSummary]) -> None:
        """The full list, unless the user is looking at search results."""
        self._titles = {c.id: c.title for c in conversations}
        if self.searching:
            self._search_timer.start()  # a rename or delete may change the results
            return
        self.list.clear()
        for conversation in conversations:
            title = conversation.title or "New conversation"
            self._add_item(conversation.id, title, f"{title}\n{_when(conversation.updated)}")
        self.hint.setText("" if conversations else "Your conversations will appear here.")
        self._select_current()

    def show_results(self, query: str, hits: list[SearchHit]) -> None:
        if query != self.search_box.text().strip():
            return  # an older search, overtaken by typing
        self.list.clear()
        for hit in hits:
            title = hit.title or "New conversation"
            detail = f"{title}\n{hit.snippet}" if hit.snippet else title
            self._add_item(hit.conversation_id, title, detail)
        self.hint.setText(
            f"{len(hits)} conversation{'s' if len(hits) != 1 else ''} found"
            if hits
            else f"Nothing found for “{query}”."
        )
        self._select_current()

    def set_current(self, conversation_id: int | None) -> None:
        self.current_id = conversation_id
        self._select_current()

    def set_busy(self, busy: bool) -> None:
        """While a reply is being written the conversation cannot change under it."""
        self.busy = busy
        self.list.setEnabled(not busy)
        self._update_buttons()

    # -- asking ------------------------------------------------------------------------------

    def selected_id(self) -> int | None:
        item = self.list.currentItem()
        return None if item is None else int(item.data(ID_ROLE))

    def ask_rename(self) -> QInputDialog | None:
        conversation_id = self.selected_id()
        if conversation_id is None or self.busy:
            return None
        dialog = QInputDialog(self)
        dialog.setWindowTitle("Rename conversation")
        dialog.setLabelText("New title:")
        dialog.setTextValue(self._titles.get(conversation_id, ""))

        def done(code: int) -> None:
            title = " ".join(dialog.textValue().split())
            if code == QInputDialog.DialogCode.Accepted and title:
                self.rename_requested.emit(conversation_id, title)
            elif code == QInputDialog.DialogCode.Accepted:
                self.hint.setText("A title cannot be empty; the old one is kept.")

        dialog.finished.connect(done)
        self.rename_dialog = dialog
        dialog.open()
        return dialog

    def ask_delete(self) -> QMessageBox | None:
        conversation_id = self.selected_id()
        if conversation_id is None or self.busy:
            return None
        title = self._titles.get(conversation_id) or "this conversation"
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Delete conversation",
            f"Delete “{title}” and all its messages? This cannot be undone.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)

        def done(_code: int) -> None:
            if box.clickedButton() is box.button(QMessageBox.StandardButton.Yes):
                self.delete_requested.emit(conversation_id)

        box.finished.connect(done)
        self.delete_box = box
        box.open()
        return box

    # -- helpers -----------------------------------------------------------------------------

    def _add_item(self, conversation_id: int, title: str, text: str) -> None:
        item = QListWidgetItem(text)
        item.setData(ID_ROLE, conversation_id)
        item.setToolTip(title)
        self.list.addItem(item)

    def _select_current(self) -> None:
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(ID_ROLE) == self.current_id:
                self.list.setCurrentItem(item)
                break
        else:
            self.list.setCurrentRow(-1)
        self._update_buttons()

    def _clicked(self, item: QListWidgetItem) -> None:
        if not self.busy:
            self.open_requested.emit(int(item.data(ID_ROLE)))

    def _run_search(self) -> None:
        query = self.search_box.text().strip()
        if query:
            self.search_requested.emit(query)
        else:
            self.hint.setText("")
            self.list_requested.emit()

    def _update_buttons(self) -> None:
        selected = self.list.currentItem() is not None
        self.new_button.setEnabled(not self.busy)
        self.rename_button.setEnabled(selected and not self.busy)
        self.delete_button.setEnabled(selected and not self.busy)


def _when(moment: datetime) -> str:
    """Local date and time of the last message, short."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")
