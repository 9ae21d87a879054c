-- H2 flavour of sql/postgresql/V5 (H2 has no partial indexes): index the embedding model column instead.
CREATE INDEX ix_turn_message_unembedded ON turn_message (embedding_model, id);
