"""The user's documents: the index kept in step with the allowed folders (`document_index`,
run in a child process by `index_process`) and the passages `search_documents` hands the
model (`document_search`).
"""
