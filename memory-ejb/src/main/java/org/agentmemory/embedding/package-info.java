/**
 * Text embeddings for episodic recall (spec §10.5): the {@link org.agentmemory.embedding.EmbeddingModel}
 * strategy, the in-process all-MiniLM-L6-v2 models (float32 default, int8 quantized) and the by-name
 * resolver.
 *
 * <p>Decisions: in-process ONNX through langchain4j, model files inside the Maven jars, nothing downloaded
 * and DJL kept offline; one load per process per model, lazily; vectors are L2-normalised floats; input is
 * NFC-normalised so canonically equivalent texts embed identically; texts beyond the 256-word-piece window
 * are chunked by sentences and words with overlap and the chunk vectors averaged by word-piece weight,
 * instead of being silently truncated as sentence-transformers does; embedding runs on the caller's thread.
 */
package org.agentmemory.embedding;
