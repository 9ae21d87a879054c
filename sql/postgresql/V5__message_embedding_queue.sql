-- Background embedding of conversation messages (memory.recall.embedding=background): the embedder takes the
-- newest messages that have no embedding model recorded yet. A partial index keeps that lookup small however
-- many messages are stored.
CREATE INDEX ix_turn_message_unembedded ON turn_message (id) WHERE embedding_model IS NULL;
