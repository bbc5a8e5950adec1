"""What the tests and the benchmarks share: the real servers they start (`mail_servers`:
Dovecot and aiosmtpd; `radicale_server`: CalDAV and CardDAV; `secret_service`: a private
keyring on its own D-Bus; `sse_server`: a scripted OpenAI-compatible stream), the test tool
set (`toolset`), the tiny hybrid Qwen3.5 GGUF the suite writes itself (`tiny_qwen35`), the GUI
tests' window on a scripted model (`qt`), and the `ask` command as a user runs it
(`ask_command`). bench/ imports tests/ only from here (`tests/import_check.py`).
"""
