"""One user turn: the loop that sequences model step → gate → confirmation → tool (`loop`),
the rules that decide each next step (`state`: what ran, what failed, what must happen next),
the conversation it extends (`chat`, kept in the store by `history`), the question put to the
user (`confirm`) and the record of every call (`audit`).
"""
