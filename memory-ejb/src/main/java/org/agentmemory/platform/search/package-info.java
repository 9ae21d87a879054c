/**
 * Search plumbing shared by the indexed entities: the English analyzer for the Lucene backend and the byte
 * form of stored embeddings.
 *
 * <p>Decisions: the default backend is embedded Lucene with the index under the server's data directory;
 * everything about the backend is a {@code persistence.xml} property with a system-property override, so an
 * OpenSearch backend can be selected without a rebuild (see {@code persistence.xml}).
 */
package org.agentmemory.platform.search;
